import { Inject, Injectable } from '@nestjs/common';
import { withTimeout, type Clock } from '@toolshield/core';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { TOOLSHIELD_CLOCK } from '../../toolshield.constants.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Gives each attempt its own `AbortSignal` (`ToolCallContext.signal`), aborted when the
 * attempt's deadline passes (`timeout`), the caller aborts or the application shuts down
 * (`cancelled`). The deadline is the earlier of the attempt's time limit and the end of the
 * call's retry budget (`budgetMs`, counted from the call's start). The attempt ends at that
 * moment even if the tool ignores the signal; a result arriving after the deadline, by the
 * clock, is discarded. The tool keeps its (aborted) signal; the layers around this one, and the
 * next attempt, go on from the caller's. When the caller's abort leaves the tool running, the
 * call state says so (`abandoned`) for the breaker's half-open trial slots.
 *
 * @internal
 */
@Injectable()
export class TimeoutLayer implements ToolPolicyLayer {
  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    // The retry layer, the only one that runs its inner layers again, puts `state.signal` back
    // before each attempt, so no restoring is needed here when this attempt ends.
    return withTimeout(
      (signal) => {
        call.signal = signal;
        state.signal = signal;
        return inner();
      },
      {
        timeoutMs: state.policies.timeoutMs,
        budget: state.budget,
        signal: state.signal,
        clock: this.clock,
        toolName: call.toolName,
        onAbandoned: (attempt) => (state.abandoned = attempt),
      },
    );
  }
}

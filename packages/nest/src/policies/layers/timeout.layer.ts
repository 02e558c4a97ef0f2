import { Inject, Injectable } from '@nestjs/common';
import { withTimeout, type Clock } from '@toolshield/core';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { TOOLSHIELD_CLOCK } from '../../toolshield.constants.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Gives each attempt its own `AbortSignal` (`ToolCallContext.signal`), aborted when the
 * attempt's time limit passes (`timeout`), the caller aborts or the application shuts down
 * (`cancelled`). The attempt ends at that moment even if the tool ignores the signal; a late
 * result is discarded. The tool keeps its (aborted) signal; the layers around this one, and
 * the next attempt, go on from the caller's.
 *
 * @internal
 */
@Injectable()
export class TimeoutLayer implements ToolPolicyLayer {
  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const outer = state.signal;
    return withTimeout(
      (signal) => {
        call.signal = signal;
        state.signal = signal;
        return inner();
      },
      {
        timeoutMs: state.policies.timeoutMs,
        signal: outer,
        clock: this.clock,
        toolName: call.toolName,
      },
    ).finally(() => {
      state.signal = outer;
    });
  }
}

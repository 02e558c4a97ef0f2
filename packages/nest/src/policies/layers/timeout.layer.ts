import { Inject, Injectable } from '@nestjs/common';
import { type Clock } from '@toolshield/core';
import {
  withAttemptTimeout,
  type AbandonedAttempt,
  type CallBudget,
  type TimeoutOptions,
} from '@toolshield/core/internal';
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
  constructor(@Inject(TOOLSHIELD_CLOCK) readonly clock: Clock) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    // The retry layer, the only one that runs its inner layers again, puts `state.signal` back
    // before each attempt, so no restoring is needed here when this attempt ends.
    return withAttemptTimeout(
      (attempt) => {
        call.attemptSource = attempt;
        state.signal = attempt;
        return inner(call, state);
      },
      new AttemptTimeout(state, this),
    );
  }
}

/**
 * One attempt's timeout options, as an object whose `onAbandoned` is a method: the options
 * live as long as the attempt, and a closure would cost a function and its scope per call.
 */
class AttemptTimeout implements TimeoutOptions {
  /** Read when the attempt starts; the timeout layer changes it only after. */
  readonly signal: ToolCallState['signal'];

  constructor(
    private readonly state: ToolCallState,
    private readonly layer: TimeoutLayer,
  ) {
    this.signal = state.signal;
  }

  get timeoutMs(): number | undefined {
    return this.state.policies.timeoutMs;
  }

  get budget(): CallBudget | undefined {
    return this.state.budget;
  }

  get clock(): Clock {
    return this.layer.clock;
  }

  get toolName(): string {
    return this.state.tool.name;
  }

  onAbandoned(attempt: AbandonedAttempt): void {
    this.state.abandoned = attempt;
  }
}

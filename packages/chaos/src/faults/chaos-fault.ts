import type { Clock, ToolCallContext } from '@toolshield/core';
import type { RandomSource } from '../random/random-stream.js';

/**
 * Everything a fault knows about the call it is injected into.
 *
 * @publicApi
 */
export interface FaultInvocation {
  /** The tool being called. */
  readonly toolName: string;
  /** The call's context: its `signal` aborts waits, its `attempt` counts retries. */
  readonly context: ToolCallContext;
  /** The clock every wait goes through (virtual in tests and in the harness). */
  readonly clock: Clock;
  /** The rule's deterministic value stream (latency samples, ...), uniform in `[0, 1)`. */
  readonly random: RandomSource;
  /** The rule that selected the fault. */
  readonly ruleId: string;
  /** 1 for the first call of this tool matched by the rule, 2 for the second, ... */
  readonly toolCallIndex: number;
  /** Marks a value as injected by this fault under this rule (see `markChaos`). */
  mark<T>(value: T): T;
}

/**
 * One kind of fault. `inject` either calls `next` (the real tool, or the next fault) and
 * passes its outcome on, possibly late or altered, or replaces it with its own failure.
 *
 * @publicApi
 */
export interface ChaosFault {
  /** Stable name for counters, events and markers (`latency`, `network:ECONNRESET`, ...). */
  readonly name: string;
  /**
   * Whether the fault applies to this call at all (default: always). Faults that stop
   * after a while, such as {@link failFirst}, decide here, so a call they let through is
   * neither counted nor reported as an injection.
   */
  applies?(invocation: FaultInvocation): boolean;
  /** Runs the fault around `next`. */
  inject(invocation: FaultInvocation, next: () => Promise<unknown>): Promise<unknown>;
}

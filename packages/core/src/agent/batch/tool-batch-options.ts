import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';

/** @publicApi */
export interface ToolBatchOptions {
  /** `sequential` (default): one call at a time, in order. `parallel`: see `concurrency`. */
  readonly strategy?: 'sequential' | 'parallel';
  /** Most calls in flight at once in `parallel` mode; default 4. */
  readonly concurrency?: number;
  /**
   * `parallel` mode only: whether a call may run alongside its neighbours (default: all may).
   * Consecutive safe calls run together; any other call runs alone, after the calls before it.
   */
  readonly isConcurrencySafe?: (call: ToolCallRequest) => boolean;
  /** Tools whose successful call ends the batch; default `DEFAULT_TERMINATING_TOOLS`. */
  readonly terminatingTools?: readonly string[];
  /** Aborting it skips the calls that have not started and reaches the running ones. */
  readonly signal?: AbortSignal;
  /**
   * Called once per call, as soon as its entry is known (persist results as they arrive).
   * Exceptions it throws are ignored, so every call still gets its result.
   */
  readonly onEntry?: (entry: ToolBatchEntry, index: number) => void;
}

/**
 * How a call's outcome came about: `executed` (the executor ran it, or rejected), `rejected`
 * (malformed: no id or no tool name, never run), `skipped` (not run: a terminating tool ended
 * the batch first, or the batch was aborted).
 *
 * @publicApi
 */
export type ToolBatchDisposition = 'executed' | 'rejected' | 'skipped';

/** @publicApi */
export interface ToolBatchEntry {
  readonly call: ToolCallRequest;
  /** The call's id, or `unidentified_call_<index>` for a call that came without one. */
  readonly callId: string;
  readonly outcome: ToolOutcome;
  readonly disposition: ToolBatchDisposition;
}

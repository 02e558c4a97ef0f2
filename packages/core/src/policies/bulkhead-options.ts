/** @publicApi */
export interface BulkheadOptions {
  /** Calls that may run at the same time (at least 1). */
  readonly maxConcurrent: number;
  /** Calls that may wait for a slot (default 0: reject at once when all slots are busy). */
  readonly maxQueue?: number;
  /** Put on the `BulkheadFullError`. */
  readonly toolName?: string;
}

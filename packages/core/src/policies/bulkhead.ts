import type { AbortSignalLike } from '../clock/abort-signal-like.js';
import { BulkheadFullError } from '../errors/bulkhead-full.error.js';
import { cancellationError } from './cancellation.js';
import { assertOptions } from '../options/assert-options.js';
import { BULKHEAD_OPTIONS_RULE } from './bulkhead-options.rule.js';
import type { BulkheadOptions } from './bulkhead-options.js';

export type { BulkheadOptions } from './bulkhead-options.js';

interface Waiter {
  readonly start: () => void;
  readonly onAbort: () => void;
}

/**
 * Limits how many calls of a tool run at once. A call beyond `maxConcurrent` waits in a FIFO
 * queue of `maxQueue` places; beyond that it fails at once with `BulkheadFullError`. A queued
 * call whose signal aborts leaves the queue and rejects with a `CancelledError` (or the
 * abort reason, if it is a `ToolError` such as the attempt's `ToolTimeoutError`). A running
 * call keeps its slot until `fn` settles, even after its timeout: the work is still running.
 *
 * @example
 * const bulkhead = new Bulkhead({ maxConcurrent: 4, maxQueue: 16 });
 * const rows = await bulkhead.execute(() => db.query(sql), signal);
 * @publicApi
 */
export class Bulkhead {
  private readonly maxConcurrent: number;
  private readonly maxQueue: number;
  private readonly toolName?: string;
  private readonly queue: Waiter[] = [];
  private running = 0;

  constructor(options: BulkheadOptions) {
    assertOptions(BULKHEAD_OPTIONS_RULE, options, 'BulkheadOptions');
    this.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent));
    this.maxQueue = Math.max(0, Math.floor(options.maxQueue ?? 0));
    this.toolName = options.toolName;
  }

  /** Calls running now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.queue.length;
  }

  /** Runs `fn` in a slot, waiting in the queue when needed. */
  async execute<T>(fn: () => Promise<T>, signal?: AbortSignalLike): Promise<T> {
    if (signal?.aborted) throw cancellationError(signal.reason);
    if (this.running >= this.maxConcurrent) await this.enqueue(signal);
    else this.running++;
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private enqueue(signal: AbortSignalLike | undefined): Promise<void> {
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new BulkheadFullError(
          `${this.maxConcurrent} calls are running and ${this.maxQueue} are queued; the tool is at capacity`,
          {
            captureStack: false,
            toolName: this.toolName,
            metadata: { maxConcurrent: this.maxConcurrent, maxQueue: this.maxQueue },
          },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          resolve();
        },
        onAbort: () => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(cancellationError(signal?.reason));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  private release(): void {
    const next = this.queue.shift();
    if (next === undefined) this.running--;
    else next.start();
  }
}

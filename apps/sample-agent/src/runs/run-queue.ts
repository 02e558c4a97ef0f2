/** Where started runs wait for a worker (BullMQ in the queue setup). */
export interface RunQueue {
  /** Queues a recorded run; any instance's worker may take it. */
  enqueue(runId: string): Promise<void>;
}

/** Injection token of the app's {@link RunQueue} (absent: runs are worked where they start). */
export const RUN_QUEUE = Symbol('RunQueue');

/** Where started runs wait for a worker (BullMQ in the queue setup). */
export interface RunQueue {
  /**
   * Queues a recorded run; any instance's worker may take it. The job's id is the run's (a run
   * is queued once however often it is enqueued) unless `jobId` names another (a run resumed
   * after approval, while the job that ran up to the wait may still be finishing).
   */
  enqueue(runId: string, jobId?: string): Promise<void>;
}

/** Injection token of the app's {@link RunQueue} (absent: runs are worked where they start). */
export const RUN_QUEUE = Symbol('RunQueue');

import type { RunEvent } from './run-event.js';

/**
 * Carries stored run events from the instance that produced them to every other instance
 * (Redis pub/sub in the queue setup), so any instance can stream any run live. Delivery is
 * best effort: a follower fills gaps from the store.
 */
export interface RunEventFeed {
  /** Sends events that are already stored. */
  publish(events: readonly RunEvent[]): void;
  /** Calls `listener` with each event of `runId` published from now on; resolves once listening. */
  listen(runId: string, listener: (event: RunEvent) => void): Promise<() => void>;
}

/** Injection token of the app's {@link RunEventFeed} (absent: runs are streamed where they run). */
export const RUN_EVENT_FEED = Symbol('RunEventFeed');

/** Injection token of this instance's name, written on every event it produces (absent: none). */
export const INSTANCE_ID = Symbol('InstanceId');

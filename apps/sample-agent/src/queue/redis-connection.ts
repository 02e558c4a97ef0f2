import { Redis } from 'ioredis';

/**
 * A connection to the queue's Redis. `maxRetriesPerRequest: null`: BullMQ's blocking
 * commands must wait through a reconnect instead of failing.
 */
export function redisConnection(url: string, name: string): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
  connection.on('error', (error: Error) => console.error(`redis (${name}): ${error.message}`));
  return connection;
}

/** The BullMQ queue runs go on, and the prefix of the event channels. */
export const RUN_QUEUE_NAME = 'toolshield-runs';

/** The pub/sub channel a run's events are published on. */
export function runEventsChannel(runId: string): string {
  return `${RUN_QUEUE_NAME}:events:${runId}`;
}

/** What a run's job carries: only the id (the run itself is in the database). */
export interface RunJobData {
  readonly runId: string;
}

import type { Provider } from '@nestjs/common';
import { INSTANCE_ID, RUN_EVENT_FEED } from '../runs/run-event-feed.js';
import { RUN_QUEUE } from '../runs/run-queue.js';
import { BullmqRunQueue } from './bullmq-run-queue.js';
import { QUEUE_SETTINGS, type QueueSettings } from './queue-settings.js';
import { RedisRunEventFeed } from './redis-run-event-feed.js';
import { RunWorker } from './run-worker.js';

/**
 * What the queue setup adds to the service: runs queued on BullMQ, this instance's worker,
 * events fanned out through Redis, and the instance's name on its events. None without
 * settings: runs stay in process.
 */
export function queueProviders(settings: QueueSettings | undefined): Provider[] {
  if (!settings) return [];
  return [
    { provide: QUEUE_SETTINGS, useValue: settings },
    { provide: INSTANCE_ID, useValue: settings.instanceId },
    { provide: RUN_QUEUE, useClass: BullmqRunQueue },
    { provide: RUN_EVENT_FEED, useClass: RedisRunEventFeed },
    RunWorker,
  ];
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { RunQueue } from '../runs/run-queue.js';
import { QUEUE_SETTINGS, type QueueSettings } from './queue-settings.js';
import { redisConnection, RUN_QUEUE_NAME, type RunJobData } from './redis-connection.js';

/**
 * The {@link RunQueue} on BullMQ: one job per run, its id the run's, so a run is queued once
 * however often it is enqueued. Finished jobs are removed (the run is in the database).
 */
@Injectable()
export class BullmqRunQueue implements RunQueue, OnApplicationShutdown {
  private readonly connection;
  private readonly queue: Queue<RunJobData>;

  constructor(@Inject(QUEUE_SETTINGS) settings: QueueSettings) {
    this.connection = redisConnection(settings.redisUrl, `${settings.instanceId}:queue`);
    this.queue = new Queue<RunJobData>(RUN_QUEUE_NAME, { connection: this.connection });
  }

  async enqueue(runId: string, jobId = runId): Promise<void> {
    await this.queue.add(
      'run',
      { runId },
      { jobId, removeOnComplete: true, removeOnFail: { count: 1_000 } },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

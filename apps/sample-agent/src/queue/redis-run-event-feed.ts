import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RunEvent } from '../runs/run-event.js';
import type { RunEventFeed } from '../runs/run-event-feed.js';
import { QUEUE_SETTINGS, type QueueSettings } from './queue-settings.js';
import { redisConnection, runEventsChannel } from './redis-connection.js';

type Listener = (event: RunEvent) => void;

/**
 * The {@link RunEventFeed} on Redis pub/sub: one channel per run, subscribed while someone on
 * this instance follows that run. One connection publishes, one subscribes.
 */
@Injectable()
export class RedisRunEventFeed implements RunEventFeed, OnApplicationShutdown {
  private readonly publisher;
  private readonly subscriber;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(@Inject(QUEUE_SETTINGS) settings: QueueSettings) {
    this.publisher = redisConnection(settings.redisUrl, `${settings.instanceId}:publish`);
    this.subscriber = redisConnection(settings.redisUrl, `${settings.instanceId}:subscribe`);
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
  }

  publish(events: readonly RunEvent[]): void {
    if (events.length === 0) return;
    const pipeline = this.publisher.pipeline();
    for (const event of events)
      pipeline.publish(runEventsChannel(event.runId), JSON.stringify(event));
    // Best effort: a follower that misses one fills the gap from the store.
    pipeline
      .exec()
      .catch((error: unknown) => console.error('could not publish run events:', error));
  }

  async listen(runId: string, listener: Listener): Promise<() => void> {
    let listeners = this.listeners.get(runId);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(runId, listeners);
      await this.subscriber.subscribe(runEventsChannel(runId));
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.listeners.get(runId) !== listeners) return;
      this.listeners.delete(runId);
      this.subscriber.unsubscribe(runEventsChannel(runId)).catch(() => undefined);
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.listeners.clear();
    this.subscriber.disconnect();
    await this.publisher.quit().catch(() => undefined);
  }

  private receive(message: string): void {
    const event = JSON.parse(message) as RunEvent;
    for (const listener of this.listeners.get(event.runId) ?? []) listener(event);
  }
}

import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ToolEvent } from '@toolshield/core/events';
import { Observable, type Subscriber } from 'rxjs';
import { ToolFailureFactory } from './tool-failure.factory.js';

/**
 * The one stream of tool events of the application (`ToolExecutor.events$`). Every event
 * leaves through the same sanitizer as failures (an attempt's message redacted, stripped of
 * stack frames and capped), so subscribers and telemetry never see more than the model. A
 * subscriber that throws is isolated: it cannot break a tool call, nor keep the event from
 * the other subscribers.
 *
 * A plain list of subscribers rather than an RxJS `Subject`: events are emitted on every
 * call's path, and a `Subject` wraps each emission in a closure and an error context.
 *
 * @internal
 */
@Injectable()
export class ToolEventBus implements OnApplicationShutdown {
  /** Replaced, never mutated, so an emission in progress is not disturbed by a change. */
  private subscribers: readonly Subscriber<ToolEvent>[] = [];
  private completed = false;
  readonly events$: Observable<ToolEvent> = new Observable<ToolEvent>((subscriber) => {
    if (this.completed) {
      subscriber.complete();
      return undefined;
    }
    this.subscribers = [...this.subscribers, subscriber];
    return () => {
      this.subscribers = this.subscribers.filter((other) => other !== subscriber);
    };
  });

  constructor(private readonly failures: ToolFailureFactory) {}

  /** Sends `event` to every subscriber; with none, it returns at once (the same code runs either way). */
  emit(event: ToolEvent): void {
    const subscribers = this.subscribers;
    if (subscribers.length === 0) return;
    // A subscriber's error must not turn into a failed tool call.
    try {
      const sanitized = this.failures.sanitizer.event(event);
      for (const subscriber of subscribers) {
        try {
          subscriber.next(sanitized);
        } catch {
          // ...nor keep the event from the next subscriber.
        }
      }
    } catch {
      // The sanitizer is total; this only keeps the promise above if it ever is not.
    }
  }

  onApplicationShutdown(): void {
    this.completed = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.complete();
  }
}

import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ToolEvent } from '@toolshield/core';
import { Subject, type Observable } from 'rxjs';
import { ToolFailureFactory } from './tool-failure.factory.js';

/**
 * The one stream of tool events of the application (`ToolExecutor.events$`). Every event
 * leaves through the same sanitizer as failures (an attempt's message redacted, stripped of
 * stack frames and capped), so subscribers and telemetry never see more than the model. A
 * subscriber that throws is isolated: it cannot break a tool call.
 *
 * @internal
 */
@Injectable()
export class ToolEventBus implements OnApplicationShutdown {
  private readonly subject = new Subject<ToolEvent>();
  readonly events$: Observable<ToolEvent> = this.subject.asObservable();

  constructor(private readonly failures: ToolFailureFactory) {}

  /** Whether anyone listens: callers skip building events nobody would receive. */
  get observed(): boolean {
    return this.subject.observed;
  }

  emit(event: ToolEvent): void {
    if (!this.subject.observed) return;
    try {
      this.subject.next(this.failures.sanitizer.event(event));
    } catch {
      // A subscriber's error must not turn into a failed tool call.
    }
  }

  onApplicationShutdown(): void {
    this.subject.complete();
  }
}

import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ToolEvent } from '@toolshield/core';
import { Subject, type Observable } from 'rxjs';

/**
 * The one stream of tool events of the application (`ToolExecutor.events$`). A subscriber
 * that throws is isolated: it cannot break a tool call.
 *
 * @internal
 */
@Injectable()
export class ToolEventBus implements OnApplicationShutdown {
  private readonly subject = new Subject<ToolEvent>();
  readonly events$: Observable<ToolEvent> = this.subject.asObservable();

  /** Whether anyone listens: callers skip building events nobody would receive. */
  get observed(): boolean {
    return this.subject.observed;
  }

  emit(event: ToolEvent): void {
    if (!this.subject.observed) return;
    try {
      this.subject.next(event);
    } catch {
      // A subscriber's error must not turn into a failed tool call.
    }
  }

  onApplicationShutdown(): void {
    this.subject.complete();
  }
}

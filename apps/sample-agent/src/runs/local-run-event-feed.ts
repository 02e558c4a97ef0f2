import type { RunEvent } from './run-event.js';
import type { RunEventFeed } from './run-event-feed.js';

/**
 * The {@link RunEventFeed} within one process: without a shared feed, a run that waits for
 * approval resumes in this process, and its followers hear of it through this.
 */
export class LocalRunEventFeed implements RunEventFeed {
  private readonly listeners = new Map<string, Set<(event: RunEvent) => void>>();

  publish(events: readonly RunEvent[]): void {
    if (this.listeners.size === 0) return;
    for (const event of events)
      for (const listener of this.listeners.get(event.runId) ?? []) listener(event);
  }

  async listen(runId: string, listener: (event: RunEvent) => void): Promise<() => void> {
    const listeners = this.listeners.get(runId) ?? new Set();
    this.listeners.set(runId, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(runId);
    };
  }
}

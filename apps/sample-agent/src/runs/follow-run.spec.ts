import { describe, expect, it } from '@jest/globals';
import { followRun } from './follow-run.js';
import { InMemoryRunStore } from './in-memory-run-store.js';
import type { RunEvent, RunEventData } from './run-event.js';
import type { RunEventFeed } from './run-event-feed.js';

/** A feed in memory that the spec drives by hand. */
class ManualFeed implements RunEventFeed {
  private readonly listeners = new Set<(event: RunEvent) => void>();
  publish(events: readonly RunEvent[]): void {
    for (const event of events) for (const listener of this.listeners) listener(event);
  }
  async listen(_runId: string, listener: (event: RunEvent) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  get listening(): number {
    return this.listeners.size;
  }
}

const step = (seq: number): RunEvent => ({
  runId: 'r',
  seq,
  at: seq,
  data: { type: 'model.request', step: seq, messages: 1 },
});
const finished: RunEventData = {
  type: 'run.finished',
  status: 'completed',
  reason: { code: 'completed', message: 'done' },
  finalAnswer: 'ok',
};

async function follow(store: InMemoryRunStore, feed: ManualFeed, afterSeq = 0) {
  const seen: number[] = [];
  let ended = false;
  await followRun(
    feed,
    store,
    'r',
    afterSeq,
    (event) => seen.push(event.seq),
    () => (ended = true),
  );
  return { seen, ended: () => ended };
}

describe('followRun', () => {
  it('replays the store after Last-Event-ID, then passes on live events in order, each once', async () => {
    const store = new InMemoryRunStore();
    const feed = new ManualFeed();
    await store.appendEvents([step(1), step(2), step(3)]);
    const { seen } = await follow(store, feed, 1);
    feed.publish([step(3), step(4)]); // 3 again: already replayed
    expect(seen).toEqual([2, 3, 4]);
  });

  it('fills a gap the feed left from the store', async () => {
    const store = new InMemoryRunStore();
    const feed = new ManualFeed();
    const { seen } = await follow(store, feed);
    await store.appendEvents([step(1), step(2), step(3)]);
    feed.publish([step(1)]);
    feed.publish([step(3)]); // 2 was lost on the way
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 2, 3]);
  });

  it('ends after run.finished and stops listening', async () => {
    const store = new InMemoryRunStore();
    const feed = new ManualFeed();
    const { seen, ended } = await follow(store, feed);
    feed.publish([step(1), { runId: 'r', seq: 2, at: 2, data: finished }, step(3)]);
    expect(seen).toEqual([1, 2]);
    expect(ended()).toBe(true);
    expect(feed.listening).toBe(0);
  });
});

import { isRunFinished, type RunEvent } from './run-event.js';
import type { RunEventFeed } from './run-event-feed.js';
import type { RunStore } from './run-store.js';

/**
 * Follows a run another instance produces: listens on the feed first, then replays the store
 * after `afterSeq`, then passes on live events in order, each once. A gap in the numbering
 * (a message the feed lost) is filled from the store, where every published event already
 * is. Ends after `run.finished`. Resolves to the function that stops following.
 */
export async function followRun(
  feed: RunEventFeed,
  store: RunStore,
  runId: string,
  afterSeq: number,
  listener: (event: RunEvent) => void,
  onEnd: () => void,
): Promise<() => void> {
  let last = afterSeq;
  let ended = false;
  let catchingUp: Promise<void> | undefined;
  const waiting: RunEvent[] = [];
  let stopListening: () => void = () => undefined;

  const stop = () => {
    if (ended) return;
    ended = true;
    stopListening();
    onEnd();
  };
  const deliver = (event: RunEvent) => {
    if (ended || event.seq <= last) return;
    last = event.seq;
    listener(event);
    if (isRunFinished(event)) stop();
  };
  const catchUp = (): Promise<void> =>
    (catchingUp ??= (async () => {
      try {
        for (const event of await store.events(runId, last)) deliver(event);
      } catch (error) {
        console.error(`could not read the events of run ${runId}:`, error);
      }
      catchingUp = undefined;
      const held = waiting.splice(0).sort((a, b) => a.seq - b.seq);
      for (const event of held) deliver(event);
    })());
  const onLive = (event: RunEvent) => {
    if (catchingUp || event.seq > last + 1) {
      waiting.push(event);
      void catchUp();
      return;
    }
    deliver(event);
  };

  stopListening = await feed.listen(runId, onLive);
  await catchUp();
  return stop;
}

import { Inject, Injectable, Optional } from '@nestjs/common';
import { followRun } from './follow-run.js';
import { LocalRunEventFeed } from './local-run-event-feed.js';
import { isRunFinished, type RunEvent, type RunEventData } from './run-event.js';
import { INSTANCE_ID, RUN_EVENT_FEED, type RunEventFeed } from './run-event-feed.js';
import { RUN_STORE, type RunStore } from './run-store.js';

/** Receives a run's events in order. */
export type RunEventListener = (event: RunEvent) => void;

/** One subscriber's way out: it changes when a waiting run's subscribers move to the feed. */
interface Subscription {
  stop: () => void;
}

/** A run in progress: its numbering, its events so far, who listens. */
interface LiveRun {
  seq: number;
  readonly events: RunEvent[];
  readonly listeners: Map<RunEventListener, Subscription>;
}

/**
 * Numbers each run's events, stores them, and hands them to subscribers, in that order: an
 * event reaches a subscriber only once it is stored, so nothing a client saw can be lost
 * by a crash. Writes are batched (everything emitted in the same tick, by every run, goes in
 * one insert) and serialised, so events are stored and delivered in the order they happened.
 * A subscriber first gets the events it missed (after its `Last-Event-ID`), then the live ones.
 * With a {@link RunEventFeed} (several instances), stored events are published to the other
 * instances too, and a run produced elsewhere is followed through the feed. A run that waits
 * for approval is followed the same way (through an in-process feed without one) until it
 * resumes, here or on any instance, and finishes.
 */
@Injectable()
export class RunEventHub {
  private readonly live = new Map<string, LiveRun>();
  private readonly taps = new Set<RunEventListener>();
  private pending: RunEvent[] = [];
  private written: Promise<void> = Promise.resolve();
  /** Runs followed through the feed here, with how many subscribers follow each. */
  private readonly followed = new Map<string, number>();
  private readonly local = new LocalRunEventFeed();

  constructor(
    @Inject(RUN_STORE) private readonly store: RunStore,
    @Optional() @Inject(RUN_EVENT_FEED) private readonly feed?: RunEventFeed,
    @Optional() @Inject(INSTANCE_ID) private readonly instance?: string,
  ) {}

  /** Starts numbering a run's events after `lastSeq` (the stored ones, for a resumed run). */
  open(runId: string, lastSeq = 0, past: readonly RunEvent[] = []): void {
    this.live.set(runId, { seq: lastSeq, events: [...past], listeners: new Map() });
  }

  /** Whether the run's events are still being produced here, or followed from another instance. */
  isLive(runId: string): boolean {
    return this.live.has(runId) || this.followed.has(runId);
  }

  /** Records an event of a live run; ignored for a run that is not live. */
  emit(runId: string, data: RunEventData, at = Date.now()): void {
    const run = this.live.get(runId);
    if (!run) return;
    run.seq += 1;
    this.pending.push(
      this.instance === undefined
        ? { runId, seq: run.seq, at, data }
        : { runId, seq: run.seq, at, instance: this.instance, data },
    );
    if (this.pending.length === 1) this.written = this.written.then(() => this.write());
  }

  /** Resolves once every event emitted so far is stored (and delivered). */
  async flush(): Promise<void> {
    await this.written;
  }

  /** Stores what is left of a run and stops numbering it: later subscribers read the store. */
  async close(runId: string): Promise<void> {
    await this.flush();
    this.live.delete(runId);
  }

  /**
   * Stores what is left of a run that now waits for approval and stops numbering it; its
   * subscribers here keep following it through the feed, wherever it resumes.
   */
  async suspend(runId: string): Promise<void> {
    await this.flush();
    const run = this.live.get(runId);
    this.live.delete(runId);
    if (!run) return;
    const lastSeq = run.seq;
    for (const [listener, subscription] of run.listeners) {
      let stopped = false;
      subscription.stop = () => (stopped = true);
      void this.follow(this.feed ?? this.local, runId, lastSeq, listener).then((stop) => {
        if (stopped) stop();
        else subscription.stop = stop;
      });
    }
  }

  /**
   * Calls `listener` with the run's events after `afterSeq` in order, then with each new one
   * until the run finishes. Resolves to the function that unsubscribes. A run that is not
   * produced here is followed through the feed while the store says it is running.
   */
  async subscribe(
    runId: string,
    afterSeq: number,
    listener: RunEventListener,
  ): Promise<() => void> {
    const run = this.live.get(runId);
    if (!run) {
      const status = (await this.store.getRun(runId))?.status;
      // A waiting run resumes here or elsewhere; a running one is produced elsewhere.
      const feed =
        status === 'awaiting_approval'
          ? (this.feed ?? this.local)
          : status === 'running'
            ? this.feed
            : undefined;
      if (feed) return this.follow(feed, runId, afterSeq, listener);
      for (const event of await this.store.events(runId, afterSeq)) listener(event);
      return () => undefined;
    }
    for (const event of run.events) if (event.seq > afterSeq) listener(event);
    const subscription: Subscription = { stop: () => run.listeners.delete(listener) };
    run.listeners.set(listener, subscription);
    return () => subscription.stop();
  }

  /** Calls `listener` with every event of every run once it is stored, in order. */
  tap(listener: RunEventListener): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  private async follow(
    feed: RunEventFeed,
    runId: string,
    afterSeq: number,
    listener: RunEventListener,
  ): Promise<() => void> {
    this.followed.set(runId, (this.followed.get(runId) ?? 0) + 1);
    let counted = true;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      const left = (this.followed.get(runId) ?? 1) - 1;
      if (left > 0) this.followed.set(runId, left);
      else this.followed.delete(runId);
    };
    const stop = await followRun(feed, this.store, runId, afterSeq, listener, uncount);
    return () => (stop(), uncount());
  }

  private async write(): Promise<void> {
    // Everything emitted before this write started goes in one batch.
    await Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    try {
      await this.store.appendEvents(batch);
      (this.feed ?? this.local).publish(batch);
    } catch (error) {
      console.error(`could not store ${batch.length} run events:`, error);
    }
    for (const event of batch) {
      for (const tap of this.taps) tap(event);
      const run = this.live.get(event.runId);
      if (!run) continue;
      run.events.push(event);
      for (const listener of run.listeners.keys()) listener(event);
      if (isRunFinished(event)) run.listeners.clear();
    }
  }
}

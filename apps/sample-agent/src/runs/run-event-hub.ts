import { Inject, Injectable } from '@nestjs/common';
import { isRunFinished, type RunEvent, type RunEventData } from './run-event.js';
import { RUN_STORE, type RunStore } from './run-store.js';

/** Receives a run's events in order. */
export type RunEventListener = (event: RunEvent) => void;

/** A run in progress: its numbering, its events so far, who listens. */
interface LiveRun {
  seq: number;
  readonly events: RunEvent[];
  readonly listeners: Set<RunEventListener>;
}

/**
 * Numbers each run's events, stores them, and hands them to subscribers, in that order: an
 * event reaches a subscriber only once it is stored, so nothing a client saw can be lost
 * by a crash. Writes are batched (everything emitted in the same tick, by every run, goes in
 * one insert) and serialised, so events are stored and delivered in the order they happened.
 * A subscriber first gets the events it missed (after its `Last-Event-ID`), then the live ones.
 */
@Injectable()
export class RunEventHub {
  private readonly live = new Map<string, LiveRun>();
  private readonly taps = new Set<RunEventListener>();
  private pending: RunEvent[] = [];
  private written: Promise<void> = Promise.resolve();

  constructor(@Inject(RUN_STORE) private readonly store: RunStore) {}

  /** Starts numbering a run's events after `lastSeq` (the stored ones, for a resumed run). */
  open(runId: string, lastSeq = 0, past: readonly RunEvent[] = []): void {
    this.live.set(runId, { seq: lastSeq, events: [...past], listeners: new Set() });
  }

  /** Whether the run's events are still being produced here. */
  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Records an event of a live run; ignored for a run that is not live. */
  emit(runId: string, data: RunEventData, at = Date.now()): void {
    const run = this.live.get(runId);
    if (!run) return;
    run.seq += 1;
    this.pending.push({ runId, seq: run.seq, at, data });
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
   * Calls `listener` with the run's events after `afterSeq` in order, then with each new one
   * until the run finishes. Resolves to the function that unsubscribes.
   */
  async subscribe(
    runId: string,
    afterSeq: number,
    listener: RunEventListener,
  ): Promise<() => void> {
    const run = this.live.get(runId);
    if (!run) {
      for (const event of await this.store.events(runId, afterSeq)) listener(event);
      return () => undefined;
    }
    for (const event of run.events) if (event.seq > afterSeq) listener(event);
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }

  /** Calls `listener` with every event of every run once it is stored, in order. */
  tap(listener: RunEventListener): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  private async write(): Promise<void> {
    // Everything emitted before this write started goes in one batch.
    await Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    try {
      await this.store.appendEvents(batch);
    } catch (error) {
      console.error(`could not store ${batch.length} run events:`, error);
    }
    for (const event of batch) {
      for (const tap of this.taps) tap(event);
      const run = this.live.get(event.runId);
      if (!run) continue;
      run.events.push(event);
      for (const listener of run.listeners) listener(event);
      if (isRunFinished(event)) run.listeners.clear();
    }
  }
}

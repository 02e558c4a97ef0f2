import type { Clock } from '@toolshield/core';
import type { BreakerHandle, SharedWindowCounts } from '@toolshield/core/internal';
import { bucketsOf, windowOf, type Tally } from './breaker-window-buckets.js';
import type { BreakerStateSync } from './breaker-state-sync.js';
import type { OutageReconciliation } from './outage-reconciliation.js';
import type { RedisBreakerCommands } from './redis-breaker-commands.js';
import type { RedisLink } from './redis-link.js';
import type { TrialLeases } from './trial-leases.js';

/** A promise and the function that resolves it. */
interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

/** The parts the window sync works with. */
export interface WindowSyncParts {
  readonly link: RedisLink;
  readonly commands: RedisBreakerCommands;
  readonly clock: Clock;
  readonly breakers: ReadonlyMap<string, BreakerHandle>;
  readonly state: BreakerStateSync;
  readonly trials: TrialLeases;
  readonly outage: OutageReconciliation;
}

/**
 * The breaker store's window sync: each instance adds its outcomes to per-bucket counters,
 * sent in one pipeline every `syncIntervalMs` (failures at once, with a nudge that makes the
 * others read the window again), and reads the others' counts back in the same round trip
 * (the breakers add them to their own in the opening decision). A failure's count is
 * confirmed by the next sync: the breaker holds its next calls until then. The same pipeline
 * renews the trial slots' leases. While Redis is away the counts are kept for the outage
 * reconciliation instead.
 *
 * @internal
 */
export class BreakerWindowSync {
  private readonly pending = new Map<string, Tally>();
  private readonly remoteCounts = new Map<string, SharedWindowCounts>();
  /** Settled by the next sync: the failures counted before it are then in the shared window. */
  private confirmation?: Deferred;
  private readonly interval: ReturnType<typeof setInterval>;
  /** A sync asked for now (after the current I/O, not after a timer's millisecond). */
  private soon?: ReturnType<typeof setImmediate>;
  private syncing = false;
  /** A sync was asked for while one ran: run another right after it. */
  private again = false;
  private closed = false;

  constructor(
    private readonly parts: WindowSyncParts,
    syncIntervalMs: number,
  ) {
    this.interval = setInterval(() => void this.sync(), syncIntervalMs);
    this.interval.unref();
  }

  /** An outcome counted while closed; a failure's promise settles once it is shared. */
  count(key: string, failed: boolean): Promise<void> | undefined {
    let counts = this.pending.get(key);
    if (counts === undefined) {
      counts = { successes: 0, failures: 0 };
      this.pending.set(key, counts);
    }
    if (!failed) {
      counts.successes++;
      return undefined;
    }
    counts.failures++;
    this.syncSoon();
    // The breaker holds its next calls until the failure is in the shared window (the next
    // sync, one round trip within the command timeout). While Redis is away or failing it
    // decides alone: a stalled Redis costs one timeout, not one per failure.
    if (!this.parts.commands.sharing()) return undefined;
    this.confirmation ??= deferred();
    return this.confirmation.promise;
  }

  /** The other instances' counts in `key`'s window, as last read. */
  remote(key: string): SharedWindowCounts | undefined {
    return this.remoteCounts.get(key);
  }

  /** Takes the others' counts a merge read. */
  setRemote(key: string, counts: SharedWindowCounts): void {
    this.remoteCounts.set(key, counts);
  }

  /** Forgets the others' counts of `key` (its shared state moved on). */
  forgetRemote(key: string): void {
    this.remoteCounts.delete(key);
  }

  /** Syncs after the current I/O. */
  syncSoon(): void {
    this.soon ??= setImmediate(() => void this.sync());
  }

  /** Stops syncing and lets the held calls go. */
  close(): void {
    this.closed = true;
    clearInterval(this.interval);
    clearImmediate(this.soon);
    this.releaseConfirmation();
  }

  /**
   * Sends pending counts and reads the other instances' counts back, in one pipeline; then
   * settles the confirmation the failures counted before it were given.
   */
  private async sync(): Promise<void> {
    this.soon = undefined;
    if (this.syncing) {
      this.again = true;
      return;
    }
    const confirmation = this.confirmation;
    this.confirmation = undefined;
    this.syncing = true;
    try {
      await this.exchange();
    } finally {
      this.syncing = false;
      confirmation?.resolve();
      // Redis failed this sync: the failures waiting for the next one are not held for it.
      if (!this.parts.commands.sharing()) this.releaseConfirmation();
    }
    if (this.again) {
      this.again = false;
      void this.sync();
    }
  }

  private releaseConfirmation(): void {
    this.confirmation?.resolve();
    this.confirmation = undefined;
  }

  private async exchange(): Promise<void> {
    if (this.closed) return;
    const { link, commands, breakers, state, trials, outage } = this.parts;
    const now = this.parts.clock.now();
    if (!commands.reachable()) {
      for (const [key, counts] of this.pending) {
        const breaker = breakers.get(key);
        if (breaker !== undefined) outage.keep(breaker, counts);
      }
      this.pending.clear();
      this.remoteCounts.clear();
      return;
    }
    outage.joinAgainWithUnsent(breakers);
    const pipeline = link.redis.pipeline();
    let nudge = false;
    for (const [key, counts] of this.pending) {
      nudge ||= counts.failures > 0;
      const breaker = breakers.get(key);
      if (breaker === undefined) continue;
      const { bucketMs } = bucketsOf(breaker);
      const bucket = commands.bucketKey(key, Math.floor(now / bucketMs), state.version(key));
      if (counts.successes > 0)
        pipeline.hincrby(bucket, `${commands.instanceId}:s`, counts.successes);
      if (counts.failures > 0)
        pipeline.hincrby(bucket, `${commands.instanceId}:f`, counts.failures);
      pipeline.pexpire(bucket, breaker.options.rollingWindowMs + bucketMs);
    }
    // New failures: the other instances read the window again now rather than at their next tick.
    if (nudge)
      pipeline.publish(link.channel, JSON.stringify({ nudge: true, origin: commands.instanceId }));
    this.pending.clear();
    for (const [key, slots] of trials.due())
      commands.renewTrials(pipeline, key, trials.leaseMs, slots);
    const reads: BreakerHandle[] = [];
    const sent = pipeline.length;
    for (const breaker of breakers.values()) {
      if (breaker.state !== 'closed') continue;
      reads.push(breaker);
      for (const index of windowOf(breaker, now))
        pipeline.hgetall(commands.bucketKey(breaker.key, index, state.version(breaker.key)));
    }
    try {
      const results = await commands.command(pipeline.exec());
      let at = sent;
      for (const breaker of reads) {
        const { buckets } = bucketsOf(breaker);
        const hashes: Record<string, string>[] = [];
        for (let index = 0; index < buckets; index++, at++)
          hashes.push((results?.[at]?.[1] ?? {}) as Record<string, string>);
        this.heard(breaker, othersIn(hashes, commands.instanceId));
      }
    } catch {
      // command() recorded it. The counts are dropped, not kept for later: the pipeline may
      // still run once Redis answers, and sending them again could count them twice.
    }
  }

  /** Takes the others' counts read for `breaker`; new failures may open it. */
  private heard(breaker: BreakerHandle, counts: SharedWindowCounts): void {
    const before = this.remoteCounts.get(breaker.key)?.failures ?? 0;
    this.remoteCounts.set(breaker.key, counts);
    if (counts.failures > before) breaker.reconsider();
  }
}

/** The counts of the other instances in a window's bucket hashes (fields `{instance}:s|f`). */
function othersIn(hashes: readonly Record<string, string>[], instanceId: string): Tally {
  let successes = 0;
  let failures = 0;
  for (const hash of hashes) {
    for (const [field, value] of Object.entries(hash)) {
      if (field.startsWith(instanceId)) continue;
      if (field.endsWith(':f')) failures += Number(value);
      else successes += Number(value);
    }
  }
  return { successes, failures };
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

import {
  assertOptions,
  type BreakerHandle,
  type CircuitBreakerSnapshot,
  type CircuitBreakerStore,
  type CircuitState,
  type SharedBreakerWindow,
  type SharedWindowCounts,
} from '@toolshield/core';
import type { Redis } from 'ioredis';
import {
  ACQUIRE_TRIAL_SCRIPT,
  JOIN_SCRIPT,
  MERGE_SCRIPT,
  RELEASE_TRIAL_SCRIPT,
  RENEW_TRIALS_SCRIPT,
  TRANSITION_SCRIPT,
  TRIAL_SUCCEEDED_SCRIPT,
} from './breaker-scripts.js';
import { bucketsOf, totalOf, windowOf, type Tally } from './breaker-window-buckets.js';
import { countsIn, OutageCounts } from './outage-counts.js';
import { DEFAULT_TRIAL_LEASE_MS, TrialSlots } from './trial-slots.js';
import {
  REDIS_BREAKER_STORE_OPTIONS_RULE,
  type RedisBreakerStoreOptions,
} from './redis-options.js';
import { RedisLink, type RedisSharingHealth } from './redis-link.js';

/** Whether this instance shares its breakers now. @publicApi */
export type RedisBreakerStoreHealth = RedisSharingHealth;

/** A state change as published on the channel. */
interface PublishedTransition {
  readonly key: string;
  readonly state: CircuitState;
  readonly openedAt: string;
  readonly version: number;
  readonly origin: string;
}

/** What this instance last knew of a breaker's shared hash. */
interface KnownState {
  readonly state: CircuitState;
  readonly version: number;
}

type ScriptReply = [number, CircuitState, number, string];

/** A promise and the function that resolves it. */
interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

/**
 * Circuit breakers shared by every instance of an application on Redis; give it to
 * `ToolShieldModule` as `breakerStore` (or to a core `CircuitBreakerRegistry` as `store`).
 *
 * - Transitions run as Lua scripts on one hash per breaker, from the state the instance last
 *   knew: the first instance to open (or close, or half-open) wins, the others follow. Every
 *   applied transition is published and the other instances apply it at once (pub/sub).
 * - The counting window is shared: each instance adds its outcomes to per-bucket counters,
 *   sent in one pipeline every `syncIntervalMs` (failures at once), and reads the others'
 *   counts back in the same round trip; the breaker's opening decision adds those last-known
 *   counts to its own. A closed breaker admits calls without waiting for Redis, except right
 *   after a failure: its next calls wait for that round trip, so none goes out on a view of
 *   the window older than the instance's own last failure.
 * - Half-open trial slots are taken in Redis too (a Lua script), so the instances together
 *   never run more trial calls than `halfOpenMaxCalls`, and their outcomes are decided there:
 *   a failed trial re-opens the breaker everywhere, and once `halfOpenMaxCalls` trials
 *   succeeded, on whichever instances, it closes everywhere. A slot is leased
 *   (`trialLeaseMs`) and renewed while its holder lives: the slot of an instance that died
 *   holding it is freed when its lease ends.
 * - Every command has a timeout. While Redis is unreachable or slow, breakers decide on local
 *   state alone and {@link health} says `degraded`; when Redis answers again, the instance
 *   joins the shared state again (writing its own when Redis lost it), and the counts it made
 *   meanwhile join the shared window (once, in one Lua script), which may open it.
 *
 * @example
 * const store = new RedisBreakerStore({ connection: new Redis(url), keyPrefix: 'agents:' });
 * const breakers = new CircuitBreakerRegistry({ store });
 * @publicApi
 */
export class RedisBreakerStore implements CircuitBreakerStore, SharedBreakerWindow {
  readonly sharedWindow: SharedBreakerWindow = this;
  readonly instanceId: string;
  private readonly redis: Redis;
  private readonly link: RedisLink;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly breakers = new Map<string, BreakerHandle>();
  private readonly known = new Map<string, KnownState>();
  private readonly pending = new Map<string, Tally>();
  /** Counts made while Redis was away: added to the shared window when it is back. */
  private readonly unsent = new OutageCounts();
  private readonly remoteCounts = new Map<string, SharedWindowCounts>();
  /** The trial slots this instance holds in Redis, by breaker key (see {@link TrialSlots}). */
  private readonly trials: TrialSlots;
  /** Settled by the next sync: the failures counted before it are then in the shared window. */
  private confirmation?: Deferred;
  private readonly interval: ReturnType<typeof setInterval>;
  /** A sync asked for now (after the current I/O, not after a timer's millisecond). */
  private soon?: ReturnType<typeof setImmediate>;
  private applying?: string;
  private syncing = false;
  /** A sync was asked for while one ran: run another right after it. */
  private again = false;
  private closed = false;

  constructor(options: RedisBreakerStoreOptions) {
    assertOptions(REDIS_BREAKER_STORE_OPTIONS_RULE, options, 'RedisBreakerStoreOptions');
    this.link = new RedisLink(options, 'breaker-transitions', {
      onMessage: (message) => this.received(message),
      onReady: () => void this.rejoin(),
    });
    ({ redis: this.redis, prefix: this.prefix, channel: this.channel } = this.link);
    this.instanceId = this.link.instanceId;
    this.trials = new TrialSlots(this.instanceId, options.trialLeaseMs ?? DEFAULT_TRIAL_LEASE_MS);
    this.interval = setInterval(() => void this.sync(), options.syncIntervalMs ?? 25);
    this.interval.unref();
  }

  /** `degraded` while Redis is away or failing: breakers then decide on local state. */
  health(): RedisBreakerStoreHealth {
    return this.link.health();
  }

  async get(key: string): Promise<CircuitBreakerSnapshot | undefined> {
    if (!this.reachable()) return undefined;
    const hash = await this.command(this.redis.hgetall(this.hashKey(key)));
    if (hash.state === undefined) return undefined;
    this.remember(key, hash.state as CircuitState, Number(hash.version));
    return snapshotOf(hash.state as CircuitState, hash.openedAt ?? '');
  }

  async set(key: string, snapshot: CircuitBreakerSnapshot): Promise<void> {
    if (this.applying === key) return;
    if (!this.reachable()) {
      // Closed again on its own while Redis was away: what it counted before starts over.
      if (snapshot.state === 'closed') this.unsent.forget(key);
      return;
    }
    const from = this.known.get(key)?.state ?? 'closed';
    const reply = await this.command(
      this.redis.eval(
        TRANSITION_SCRIPT,
        2,
        this.hashKey(key),
        this.trialsKey(key),
        from,
        snapshot.state,
        String(snapshot.openedAt ?? snapshot.savedAt),
        this.instanceId,
        this.channel,
        key,
        Date.now(),
      ) as Promise<ScriptReply>,
    );
    this.follow(key, reply);
  }

  attach(breaker: BreakerHandle): void {
    this.breakers.set(breaker.key, breaker);
    if (this.reachable()) void this.join(breaker);
  }

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
    this.soon ??= setImmediate(() => void this.sync());
    // The breaker holds its next calls until the failure is in the shared window (the next
    // sync, one round trip within the command timeout). While Redis is away or failing it
    // decides alone: a stalled Redis costs one timeout, not one per failure.
    if (this.health().status !== 'shared') return undefined;
    this.confirmation ??= deferred();
    return this.confirmation.promise;
  }

  remote(key: string): SharedWindowCounts | undefined {
    return this.remoteCounts.get(key);
  }

  async acquireTrial(key: string, max: number): Promise<boolean> {
    if (!this.reachable()) return true;
    const slot = this.trials.next();
    try {
      const taken = await this.command(
        this.redis.eval(
          ACQUIRE_TRIAL_SCRIPT,
          2,
          this.hashKey(key),
          this.trialsKey(key),
          max,
          slot,
          this.trials.leaseMs,
        ) as Promise<number>,
      );
      if (taken > 0) this.trials.hold(key, slot, taken);
      return taken !== 0;
    } catch {
      // A slot the script may still have taken is not renewed: its lease frees it.
      return true;
    }
  }

  trialSucceeded(key: string, max: number): Promise<boolean> | undefined {
    const slot = this.trials.take(key);
    if (slot === undefined || !this.reachable()) return undefined;
    return this.command(
      this.redis.eval(
        TRIAL_SUCCEEDED_SCRIPT,
        2,
        this.hashKey(key),
        this.trialsKey(key),
        slot,
        max,
        this.instanceId,
        this.channel,
        key,
        Date.now(),
      ) as Promise<ScriptReply>,
    ).then(
      (reply) => {
        // A hash Redis lost (version 0) has no state to follow.
        if (Number(reply[2]) > 0) this.follow(key, reply);
        return reply[0] === 1;
      },
      () => false,
    );
  }

  releaseTrial(key: string): void {
    const slot = this.trials.take(key);
    if (slot === undefined || !this.reachable()) return;
    void this.command(this.redis.eval(RELEASE_TRIAL_SCRIPT, 1, this.trialsKey(key), slot)).catch(
      () => undefined,
    );
  }

  /** Stops syncing and closes the pub/sub connection (the main connection stays the caller's). */
  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    clearImmediate(this.soon);
    this.releaseConfirmation();
    this.link.close();
    return Promise.resolve();
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
      if (this.health().status !== 'shared') this.releaseConfirmation();
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
    const now = Date.now();
    if (!this.reachable()) {
      this.keepUnsent(now);
      this.remoteCounts.clear();
      return;
    }
    this.joinAgainWithUnsent();
    const pipeline = this.redis.pipeline();
    let nudge = false;
    for (const [key, counts] of this.pending) {
      nudge ||= counts.failures > 0;
      const breaker = this.breakers.get(key);
      if (breaker === undefined) continue;
      const { bucketMs } = bucketsOf(breaker);
      const bucket = this.bucketKey(key, Math.floor(now / bucketMs));
      if (counts.successes > 0) pipeline.hincrby(bucket, `${this.instanceId}:s`, counts.successes);
      if (counts.failures > 0) pipeline.hincrby(bucket, `${this.instanceId}:f`, counts.failures);
      pipeline.pexpire(bucket, breaker.options.rollingWindowMs + bucketMs);
    }
    // New failures: the other instances read the window again now rather than at their next tick.
    if (nudge)
      pipeline.publish(this.channel, JSON.stringify({ nudge: true, origin: this.instanceId }));
    this.pending.clear();
    for (const [key, slots] of this.trials.due(now))
      pipeline.eval(RENEW_TRIALS_SCRIPT, 1, this.trialsKey(key), this.trials.leaseMs, ...slots);
    const reads: BreakerHandle[] = [];
    const sent = pipeline.length;
    for (const breaker of this.breakers.values()) {
      if (breaker.state !== 'closed') continue;
      reads.push(breaker);
      for (const index of windowOf(breaker, now))
        pipeline.hgetall(this.bucketKey(breaker.key, index));
    }
    try {
      const results = await this.command(pipeline.exec());
      let at = sent;
      for (const breaker of reads) {
        const { buckets } = bucketsOf(breaker);
        let successes = 0;
        let failures = 0;
        for (let index = 0; index < buckets; index++, at++) {
          const hash = (results?.[at]?.[1] ?? {}) as Record<string, string>;
          for (const [field, value] of Object.entries(hash)) {
            if (field.startsWith(this.instanceId)) continue;
            if (field.endsWith(':f')) failures += Number(value);
            else successes += Number(value);
          }
        }
        const before = this.remoteCounts.get(breaker.key)?.failures ?? 0;
        this.remoteCounts.set(breaker.key, { successes, failures });
        if (failures > before) breaker.reconsider();
      }
    } catch {
      // command() recorded it. The counts are dropped, not kept for later: the pipeline may
      // still run once Redis answers, and sending them again could count them twice.
    }
  }

  /** Keeps the pending counts (Redis is away) for the window's span, until it is back. */
  private keepUnsent(now: number): void {
    for (const [key, counts] of this.pending) {
      const breaker = this.breakers.get(key);
      if (breaker !== undefined) this.unsent.keep(breaker, counts, now);
    }
    this.pending.clear();
  }

  /**
   * Joins again each breaker whose outage counts are still kept while Redis answers: a join
   * that failed (a command timeout on a Redis just restarted) put them back, and no 'ready'
   * may come to take them.
   */
  private joinAgainWithUnsent(): void {
    for (const key of this.unsent.keys()) {
      const breaker = this.breakers.get(key);
      if (breaker !== undefined) void this.join(breaker);
    }
  }

  /** Joins every breaker's shared state again once Redis answers. */
  private async rejoin(): Promise<void> {
    await Promise.all([...this.breakers.values()].map((breaker) => this.join(breaker)));
  }

  /**
   * Follows the shared state of `breaker` (or writes its own when Redis lost it). When that
   * state is closed, the counts this instance made while Redis was away (those still in the
   * window) go into its own window as it follows, and into the shared window in one script:
   * the merged window then decides whether the breaker opens.
   */
  private async join(breaker: BreakerHandle): Promise<void> {
    // The command connection's own 'ready' joins again, and takes the unsent counts with it.
    if (!this.reachable()) return;
    const { key } = breaker;
    const unsent = this.unsent.take(key);
    const snapshot = breaker.snapshot();
    const knownBefore = this.known.get(key);
    let reply: ScriptReply;
    try {
      reply = await this.command(
        this.redis.eval(
          JOIN_SCRIPT,
          2,
          this.hashKey(key),
          this.trialsKey(key),
          snapshot.state,
          String(snapshot.openedAt ?? snapshot.savedAt),
          this.instanceId,
          this.channel,
          key,
        ) as Promise<ScriptReply>,
      );
    } catch {
      // Still degraded: the counts wait for the next 'ready', which joins again.
      if (unsent !== undefined) this.unsent.putBack(key, unsent);
      return;
    }
    const [, state, version, openedAt] = reply;
    const window = windowOf(breaker, Date.now());
    const own = state === 'closed' && unsent !== undefined ? countsIn(unsent, window) : undefined;
    // The hash is taken as it is (a restarted Redis counts versions from 1 again), unless a
    // newer state arrived while the script ran: a reply older than it must not undo it.
    if (this.known.get(key) === knownBefore) this.known.delete(key);
    this.apply(key, state, Number(version), openedAt, own && totalOf(own));
    if (own === undefined) return;
    const others = await this.merge(breaker, Number(version), window, own);
    if (others === undefined || this.known.get(key)?.version !== Number(version)) return;
    this.remoteCounts.set(key, others);
    breaker.reconsider();
  }

  /**
   * Adds `own` (counts by bucket of `window`) to the shared window of `version` (see
   * MERGE_SCRIPT); resolves the other instances' counts, or undefined when nothing was added.
   */
  private async merge(
    breaker: BreakerHandle,
    version: number,
    window: readonly number[],
    own: readonly Tally[],
  ): Promise<SharedWindowCounts | undefined> {
    try {
      const [added, successes, failures] = await this.command(
        this.redis.eval(
          MERGE_SCRIPT,
          window.length + 1,
          this.hashKey(breaker.key),
          ...window.map((index) => this.bucketKey(breaker.key, index, version)),
          version,
          this.instanceId,
          this.channel,
          bucketsOf(breaker).bucketMs,
          window.at(-1) as number,
          breaker.options.rollingWindowMs + bucketsOf(breaker).bucketMs,
          ...own.flatMap((counts) => [counts.successes, counts.failures]),
        ) as Promise<[number, number, number]>,
      );
      return added === 1 ? { successes, failures } : undefined;
    } catch {
      // Whether the script ran is unknown: the counts are not sent again (never twice).
      return undefined;
    }
  }

  private received(message: string): void {
    let change: PublishedTransition | { readonly nudge: true; readonly origin: string };
    try {
      change = JSON.parse(message) as PublishedTransition;
    } catch {
      return;
    }
    if (change.origin === this.instanceId) return;
    if ('nudge' in change) {
      this.soon ??= setImmediate(() => void this.sync());
      return;
    }
    this.apply(change.key, change.state, change.version, change.openedAt);
  }

  /** Takes over the state a script reply says the hash holds, when it is newer. */
  private follow(key: string, [, state, version, openedAt]: ScriptReply): void {
    this.apply(key, state, Number(version), openedAt);
  }

  /** Takes over a newer shared state; a breaker that closes starts with `window` counted. */
  private apply(
    key: string,
    state: CircuitState,
    version: number,
    openedAt: string,
    window?: SharedWindowCounts,
  ): void {
    const known = this.known.get(key);
    if (known !== undefined && known.version >= version) return;
    this.remember(key, state, version);
    const breaker = this.breakers.get(key);
    if (breaker === undefined || breaker.state === state) return;
    this.applying = key;
    try {
      breaker.hydrate(snapshotOf(state, openedAt, window));
    } finally {
      this.applying = undefined;
    }
  }

  private remember(key: string, state: CircuitState, version: number): void {
    this.trials.keep(key, version);
    this.known.set(key, { state, version });
    this.remoteCounts.delete(key);
  }

  private reachable(): boolean {
    return this.link.reachable();
  }

  private command<T>(work: Promise<T>): Promise<T> {
    return this.link.command(work);
  }

  private hashKey(key: string): string {
    return `${this.prefix}breaker:{${key}}`;
  }

  private trialsKey(key: string): string {
    return `${this.prefix}breaker:{${key}}:trials`;
  }

  private bucketKey(
    key: string,
    index: number,
    version = this.known.get(key)?.version ?? 0,
  ): string {
    return `${this.prefix}breaker:{${key}}:w:${version}:${index}`;
  }
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

function snapshotOf(
  state: CircuitState,
  openedAt: string,
  window?: SharedWindowCounts,
): CircuitBreakerSnapshot {
  const at = Number(openedAt);
  return {
    state,
    savedAt: Date.now(),
    ...(state === 'open' || state === 'half_open'
      ? { openedAt: Number.isFinite(at) && openedAt !== '' ? at : Date.now() }
      : {}),
    ...(state === 'closed' && window !== undefined ? { window } : {}),
  };
}

import type {
  BreakerHandle,
  CircuitBreakerSnapshot,
  CircuitBreakerStore,
  CircuitState,
  SharedBreakerWindow,
  SharedWindowCounts,
} from '@toolshield/core';
import type { Redis } from 'ioredis';
import {
  ACQUIRE_TRIAL_SCRIPT,
  JOIN_SCRIPT,
  RELEASE_TRIAL_SCRIPT,
  TRANSITION_SCRIPT,
} from './breaker-scripts.js';
import { RedisLink, type RedisSharingHealth, type RedisStoreOptions } from './redis-link.js';

/** @publicApi */
export interface RedisBreakerStoreOptions extends RedisStoreOptions {
  /** How often counts are sent and other instances' counts read back (default 25 ms). */
  readonly syncIntervalMs?: number;
}

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

/**
 * Circuit breakers shared by every instance of an application on Redis; give it to
 * `ToolShieldModule` as `breakerStore` (or to a core `CircuitBreakerRegistry` as `store`).
 *
 * - Transitions run as Lua scripts on one hash per breaker, from the state the instance last
 *   knew: the first instance to open (or close, or half-open) wins, the others follow. Every
 *   applied transition is published and the other instances apply it at once (pub/sub).
 * - The counting window is shared: each instance adds its outcomes to per-bucket counters,
 *   sent in one pipeline every `syncIntervalMs` (failures sooner), and reads the others'
 *   counts back in the same round trip; the breaker's opening decision adds those last-known
 *   counts to its own. A closed breaker admits calls without waiting for Redis.
 * - Half-open trial slots are taken in Redis too (a Lua script), so the instances together
 *   never run more trial calls than `halfOpenMaxCalls`.
 * - Every command has a timeout. While Redis is unreachable or slow, breakers decide on local
 *   state alone and {@link health} says `degraded`; when Redis answers again, the instance
 *   joins the shared state again (writing its own when Redis lost it).
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
  private readonly pending = new Map<string, { successes: number; failures: number }>();
  private readonly remoteCounts = new Map<string, SharedWindowCounts>();
  private readonly interval: ReturnType<typeof setInterval>;
  private soon?: ReturnType<typeof setTimeout>;
  private applying?: string;
  private syncing = false;
  /** A sync was asked for while one ran: run another right after it. */
  private again = false;
  private closed = false;

  constructor(options: RedisBreakerStoreOptions) {
    this.link = new RedisLink(options, 'breaker-transitions', {
      onMessage: (message) => this.received(message),
      onReady: () => void this.rejoin(),
    });
    ({ redis: this.redis, prefix: this.prefix, channel: this.channel } = this.link);
    this.instanceId = this.link.instanceId;
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
    if (this.applying === key || !this.reachable()) return;
    const from = this.known.get(key)?.state ?? 'closed';
    const reply = await this.command(
      this.redis.eval(
        TRANSITION_SCRIPT,
        1,
        this.hashKey(key),
        from,
        snapshot.state,
        String(snapshot.openedAt ?? snapshot.savedAt),
        this.instanceId,
        this.channel,
        key,
      ) as Promise<ScriptReply>,
    );
    this.follow(key, reply);
  }

  attach(breaker: BreakerHandle): void {
    this.breakers.set(breaker.key, breaker);
    if (this.reachable()) void this.join(breaker);
  }

  count(key: string, failed: boolean): void {
    let counts = this.pending.get(key);
    if (counts === undefined) {
      counts = { successes: 0, failures: 0 };
      this.pending.set(key, counts);
    }
    if (failed) {
      counts.failures++;
      this.soon ??= setTimeout(() => void this.sync(), 0);
    } else counts.successes++;
  }

  remote(key: string): SharedWindowCounts | undefined {
    return this.remoteCounts.get(key);
  }

  async acquireTrial(key: string, max: number): Promise<boolean> {
    if (!this.reachable()) return true;
    try {
      const taken = await this.command(
        this.redis.eval(ACQUIRE_TRIAL_SCRIPT, 1, this.hashKey(key), max) as Promise<number>,
      );
      return taken === 1;
    } catch {
      return true;
    }
  }

  releaseTrial(key: string): void {
    if (!this.reachable()) return;
    void this.command(this.redis.eval(RELEASE_TRIAL_SCRIPT, 1, this.hashKey(key))).catch(
      () => undefined,
    );
  }

  /** Stops syncing and closes the pub/sub connection (the main connection stays the caller's). */
  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    clearTimeout(this.soon);
    this.link.close();
    return Promise.resolve();
  }

  /** Sends pending counts and reads the other instances' counts back, in one pipeline. */
  private async sync(): Promise<void> {
    this.soon = undefined;
    if (this.closed) return;
    if (this.syncing) {
      this.again = true;
      return;
    }
    if (!this.reachable()) {
      this.pending.clear();
      this.remoteCounts.clear();
      return;
    }
    this.syncing = true;
    const now = Date.now();
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
    const reads: BreakerHandle[] = [];
    const sent = pipeline.length;
    for (const breaker of this.breakers.values()) {
      if (breaker.state !== 'closed') continue;
      const { bucketMs, buckets } = bucketsOf(breaker);
      const newest = Math.floor(now / bucketMs);
      reads.push(breaker);
      for (let index = newest - buckets + 1; index <= newest; index++)
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
      // command() recorded it; counts are dropped, the breakers decide locally.
    } finally {
      this.syncing = false;
    }
    if (this.again) {
      this.again = false;
      void this.sync();
    }
  }

  /** Joins every breaker's shared state again once Redis answers. */
  private async rejoin(): Promise<void> {
    await Promise.all([...this.breakers.values()].map((breaker) => this.join(breaker)));
  }

  private async join(breaker: BreakerHandle): Promise<void> {
    const snapshot = breaker.snapshot();
    try {
      const reply = await this.command(
        this.redis.eval(
          JOIN_SCRIPT,
          1,
          this.hashKey(breaker.key),
          snapshot.state,
          String(snapshot.openedAt ?? snapshot.savedAt),
          this.instanceId,
          this.channel,
          breaker.key,
        ) as Promise<ScriptReply>,
      );
      this.known.delete(breaker.key);
      this.follow(breaker.key, reply);
    } catch {
      // Still degraded: the next 'ready' joins again.
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
      this.soon ??= setTimeout(() => void this.sync(), 0);
      return;
    }
    this.apply(change.key, change.state, change.version, change.openedAt);
  }

  /** Takes over the state a script reply says the hash holds, when it is newer. */
  private follow(key: string, [, state, version, openedAt]: ScriptReply): void {
    this.apply(key, state, Number(version), openedAt);
  }

  private apply(key: string, state: CircuitState, version: number, openedAt: string): void {
    const known = this.known.get(key);
    if (known !== undefined && known.version >= version) return;
    this.remember(key, state, version);
    const breaker = this.breakers.get(key);
    if (breaker === undefined || breaker.state === state) return;
    this.applying = key;
    try {
      breaker.hydrate(snapshotOf(state, openedAt));
    } finally {
      this.applying = undefined;
    }
  }

  private remember(key: string, state: CircuitState, version: number): void {
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

  private bucketKey(key: string, index: number): string {
    return `${this.prefix}breaker:{${key}}:w:${this.known.get(key)?.version ?? 0}:${index}`;
  }
}

function bucketsOf(breaker: BreakerHandle): { bucketMs: number; buckets: number } {
  const { rollingWindowMs, rollingBuckets } = breaker.options;
  return { bucketMs: rollingWindowMs / rollingBuckets, buckets: rollingBuckets };
}

function snapshotOf(state: CircuitState, openedAt: string): CircuitBreakerSnapshot {
  const at = Number(openedAt);
  return {
    state,
    savedAt: Date.now(),
    ...(state === 'open' || state === 'half_open'
      ? { openedAt: Number.isFinite(at) && openedAt !== '' ? at : Date.now() }
      : {}),
  };
}

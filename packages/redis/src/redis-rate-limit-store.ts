import { type Clock, type RateLimitEvent, type RateLimitOptions } from '@toolshield/core';
import { assertOptions, type RateLimiter, type RateLimitStore } from '@toolshield/core/internal';
import type { Redis } from 'ioredis';
import {
  REDIS_RATE_LIMIT_STORE_OPTIONS_RULE,
  type RedisRateLimitStoreOptions,
} from './redis-options.js';
import { RedisLink, type RedisSharingHealth } from './redis-link.js';
import { RedisClockOffset } from './redis-clock-offset.js';
import { Respacings } from './respacings.js';
import { RedisCommandTimeoutError } from './with-timeout.js';
import { SharedRateLimiter } from './shared-rate-limiter.js';
import type {
  RateLimitSlot,
  RateLimitSlotRequest,
  SharedRateChange,
  SharedRateLimiterHandle,
  SharedSchedule,
} from './shared-schedule.js';
import {
  ANNOUNCE,
  HEARTBEAT,
  LEARNED,
  PAUSE,
  RAISE,
  RESERVE,
  RESPACE,
  SCRIPTS,
  SLOW_DOWN,
  type LearnedReply,
  type PublishedChange,
  type ReserveReply,
  type RespaceReply,
  type SlowDownReply,
} from './rate-limit-commands.js';

/** This process's wall clock with sub-millisecond precision. */
function localNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Rate limits shared by every instance of an application on Redis; give it to
 * `ToolShieldModule` as `rateLimitStore`; {@link limiter} makes a key's limiter on it.
 *
 * - Every call reserves its slot with one Lua script on the key's hash: the GCRA schedule
 *   (theoretical arrival time, pause) in Redis time, so N instances together stay within
 *   the rate and the burst, whatever their clocks say. The reply is the slot's time on
 *   Redis's clock, laid onto this process's clock through the offset between the two learned
 *   from the replies themselves, so a reply handled late does not make its slot late; the
 *   call waits for it on its own instance.
 * - A pause (an upstream's `Retry-After`) is set by a script that also moves every slot
 *   already reserved past it, and is published so the instances holding those slots wait.
 * - Adaptive decisions are shared by scripts and published: a slow-down once per cooldown
 *   across the instances, a raise only when higher, an announced limit as every instance's
 *   ceiling, a fall of the rate moving the slots already reserved apart (once).
 * - While Redis is unreachable or slow (past `commandTimeoutMs`), calls decide locally at the
 *   rate divided by the instances last seen alive (heartbeats) and {@link health} says
 *   `degraded`; reservations try Redis again after `retryAfterFailureMs`.
 *
 * @example
 * const store = new RedisRateLimitStore({ connection: new Redis(url), keyPrefix: 'agents:' });
 * const limiter = store.limiter('search-api', { rate: 50 }, new SystemClock());
 * @publicApi
 */
export class RedisRateLimitStore implements RateLimitStore, SharedSchedule {
  readonly instanceId: string;
  private readonly redis: Redis;
  private readonly link: RedisLink;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly ttlMs: string;
  private readonly retryAfterFailureMs: number;
  private readonly limiters = new Map<string, SharedRateLimiterHandle>();
  /** The latest slow-down version each key's limiter has followed. */
  private readonly versions = new Map<string, number>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly heartbeatTimeoutMs: number;
  private readonly minInstances: number;
  private instances: number;
  /** Until when reservations are not tried (Date.now() ms) after a failure. */
  private localUntil = 0;
  /** Where Redis's slot times fall on this process's clock. */
  private readonly clockOffset = new RedisClockOffset();
  private readonly respacings = new Respacings();

  constructor(options: RedisRateLimitStoreOptions) {
    assertOptions(REDIS_RATE_LIMIT_STORE_OPTIONS_RULE, options, 'RedisRateLimitStoreOptions');
    this.minInstances = options.minInstances ?? 1;
    this.instances = this.minInstances;
    this.link = new RedisLink(options, 'rate-limit-changes', {
      onMessage: (message) => this.received(message),
      onReady: () => this.rejoin(),
    });
    ({ redis: this.redis, prefix: this.prefix, channel: this.channel } = this.link);
    this.instanceId = this.link.instanceId;
    this.ttlMs = String(options.stateTtlMs ?? 600_000);
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? 1_000;
    const heartbeatMs = options.heartbeatMs ?? 1_000;
    this.heartbeatTimeoutMs = heartbeatMs * 3;
    this.heartbeat = setInterval(() => void this.beat(), heartbeatMs);
    this.heartbeat.unref();
    void this.beat();
  }

  /** The limiter of `key`, its slots reserved on the schedule every instance shares. */
  limiter(
    key: string,
    options: RateLimitOptions,
    clock: Clock,
    observe?: (event: RateLimitEvent) => void,
  ): RateLimiter {
    return new SharedRateLimiter(key, options, clock, observe, this);
  }

  /** `degraded` while Redis is away or failing: limiters then pace on local state. */
  health(): RedisSharingHealth {
    const health = this.link.health();
    if (health.status === 'shared' && this.localUntil > Date.now())
      return { status: 'degraded', lastError: 'a reservation failed; deciding locally for now' };
    return health;
  }

  reserve(
    key: string,
    request: RateLimitSlotRequest,
    late?: (slot: RateLimitSlot) => void,
  ): Promise<RateLimitSlot | undefined> | undefined {
    // The first connection is waited for: a new instance pacing alone would add its whole rate.
    if (!this.link.reachable() && !this.link.connecting()) return undefined;
    if (this.localUntil !== 0 && Date.now() < this.localUntil) return undefined;
    const reply = RESERVE.run(
      this.redis,
      this.hashKey(key),
      1000 / request.rate,
      request.burst,
      request.maxWaitMs,
      this.ttlMs,
      this.respacings.known(key),
    ) as Promise<ReserveReply>;
    return this.link.command(reply).then(
      (answer) => this.slotOf(key, answer),
      (error: unknown) => {
        this.localUntil = Date.now() + this.retryAfterFailureMs;
        // Too slow, not lost: the slot it reserves is the call's if it still waits.
        if (late !== undefined && error instanceof RedisCommandTimeoutError)
          reply.then((answer) => late(this.slotOf(key, answer))).catch(() => undefined);
        return undefined;
      },
    );
  }

  /** A reservation's answer, its slot placed on this process's clock. */
  private slotOf(key: string, [granted, ms, redisNow, respaced]: ReserveReply): RateLimitSlot {
    const receivedAt = localNow();
    this.clockOffset.sample(Number(redisNow), receivedAt);
    if (granted !== 1) return { granted: false, retryAfterMs: Number(ms) };
    const slotAt = this.respacings.placed(key, Number(respaced), Number(redisNow) + Number(ms));
    // The wait from now on this clock, whenever the reply was handled (negative: passed).
    return { granted: true, waitMs: this.clockOffset.toLocal(slotAt) - receivedAt };
  }

  fallbackRate(_key: string, rate: number): number {
    return rate / this.instances;
  }

  share(key: string, change: SharedRateChange): void {
    if (!this.link.reachable()) return;
    const hash = this.hashKey(key);
    const published = [this.channel, key, this.instanceId];
    void this.link.command(this.sent(key, hash, change, published)).catch(() => undefined);
  }

  private sent(
    key: string,
    hash: string,
    change: SharedRateChange,
    published: string[],
  ): Promise<unknown> {
    switch (change.kind) {
      case 'paused':
        return PAUSE.run(this.redis, hash, change.forMs, this.ttlMs, ...published);
      case 'spaced':
        return this.respace(key, hash, change.intervalMs, published);
      case 'announced':
        return ANNOUNCE.run(this.redis, hash, change.rate, this.ttlMs, ...published);
      case 'raised':
        return RAISE.run(
          this.redis,
          hash,
          change.rate,
          this.versions.get(key) ?? 0,
          this.ttlMs,
          ...published,
        );
      case 'slowed':
        return this.slowDown(key, hash, change, published);
    }
  }

  /** This instance's rate fell: the slots reserved closer move apart, its own held ones too. */
  private async respace(
    key: string,
    hash: string,
    intervalMs: number,
    published: string[],
  ): Promise<void> {
    this.respaced(
      key,
      (await RESPACE.run(this.redis, hash, intervalMs, this.ttlMs, ...published)) as RespaceReply,
    );
  }

  /**
   * The respacing made at Redis time `at`: slots after Redis time `from` moved `factor` times
   * as far from it. The limiter moves the ones it holds, from that point placed on this clock
   * (however late this was handled).
   */
  private respaced(key: string, [factorText, fromText, at]: RespaceReply): void {
    const [factor, from] = [Number(factorText), Number(fromText)];
    if (factor <= 1 || !this.respacings.heard(key, Number(at), factor, from)) return;
    const fromMs = this.clockOffset.toLocal(from) - localNow();
    if (Number.isFinite(fromMs))
      this.limiters.get(key)?.follow({ kind: 'respaced', factor, fromMs });
  }

  /**
   * Registers a limiter for the changes of its key; resolves once it has followed what the
   * instances learned so far (or Redis did not answer within `commandTimeoutMs`), so that its
   * first reservations are spaced at the shared limit, not at its configured rate.
   */
  attach(limiter: SharedRateLimiterHandle): Promise<void> | undefined {
    this.limiters.set(limiter.key, limiter);
    // While the first connection is made the join waits for it, as reservations do.
    return this.link.reachable() || this.link.connecting() ? this.join(limiter) : undefined;
  }

  /** Stops the heartbeat, leaves the instances' set, closes the pub/sub connection. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.link.reachable())
      await this.link
        .command(this.redis.zrem(this.instancesKey(), this.instanceId))
        .catch(() => undefined);
    this.link.close();
  }

  private async slowDown(
    key: string,
    hash: string,
    change: Extract<SharedRateChange, { kind: 'slowed' }>,
    published: string[],
  ): Promise<void> {
    const reply = (await SLOW_DOWN.run(
      this.redis,
      hash,
      change.rate,
      change.top,
      change.cooldownMs,
      this.ttlMs,
      ...published,
    )) as SlowDownReply;
    const [applied, floor, top, since, rate, version] = reply;
    this.versions.set(key, version);
    if (applied === 1) return;
    // Another instance slowed down within the cooldown: this one follows it instead.
    this.followLearned(key, [floor ?? '', top ?? '', since, rate ?? '', version]);
  }

  /** Takes over what the instances learned so far (on attach, and when Redis is back). */
  private async join(limiter: SharedRateLimiterHandle): Promise<void> {
    try {
      const learned = (await this.link.command(
        LEARNED.run(this.redis, this.hashKey(limiter.key)),
      )) as LearnedReply;
      this.followLearned(limiter.key, learned);
    } catch {
      // Still degraded: the next 'ready' joins again.
    }
  }

  private followLearned(
    key: string,
    [floor, top, since, rate, version, announced = '', respaced]: LearnedReply,
  ): void {
    const limiter = this.limiters.get(key);
    this.versions.set(key, version);
    if (respaced !== undefined) this.respacings.joined(key, Number(respaced));
    if (limiter === undefined) return;
    if (announced !== '') limiter.follow({ kind: 'announced', rate: Number(announced) });
    if (floor !== '' && top !== '' && since !== '')
      limiter.follow({
        kind: 'slowed',
        rate: Number(floor),
        top: Number(top),
        sinceMs: Number(since),
      });
    if (rate !== '' && rate !== floor) limiter.follow({ kind: 'raised', rate: Number(rate) });
  }

  private rejoin(): void {
    this.localUntil = 0;
    for (const script of SCRIPTS)
      void this.link.command(script.load(this.redis)).catch(() => undefined);
    void this.beat();
    for (const limiter of this.limiters.values()) void this.join(limiter);
  }

  private received(message: string): void {
    let change: PublishedChange;
    try {
      change = JSON.parse(message) as PublishedChange;
    } catch {
      return;
    }
    if (change.origin === this.instanceId) return;
    if (change.kind === 'slowed' && change.version !== undefined)
      this.versions.set(change.key, change.version);
    const limiter = this.limiters.get(change.key);
    if (limiter === undefined) return;
    if (change.kind === 'paused')
      limiter.follow({ kind: 'paused', forMs: change.forMs, shiftMs: change.shiftMs });
    else if (change.kind === 'respaced')
      this.respaced(change.key, [change.factor, change.from, change.respaced]);
    else if (change.kind === 'announced') limiter.follow({ kind: 'announced', rate: change.rate });
    else if (change.kind === 'slowed')
      limiter.follow({ kind: 'slowed', rate: change.rate, top: change.top, sinceMs: 0 });
    else limiter.follow({ kind: 'raised', rate: change.rate });
  }

  private async beat(): Promise<void> {
    if (!this.link.reachable()) return;
    try {
      const alive = (await this.link.command(
        HEARTBEAT.run(this.redis, this.instancesKey(), this.instanceId, this.heartbeatTimeoutMs),
      )) as number;
      this.instances = Math.max(this.minInstances, alive);
    } catch {
      // Keeps the last count: the fallback rate stays what it was when Redis was last seen.
    }
  }

  private hashKey(key: string): string {
    return `${this.prefix}rate-limit:{${key}}`;
  }

  private instancesKey(): string {
    return `${this.prefix}rate-limit-instances`;
  }
}

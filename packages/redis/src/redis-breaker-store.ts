import { systemClock } from '@toolshield/core';
import {
  assertOptions,
  type BreakerHandle,
  type CircuitBreakerSnapshot,
  type CircuitBreakerStore,
  type SharedBreakerWindow,
  type SharedWindowCounts,
} from '@toolshield/core/internal';
import { BreakerStateSync } from './breaker-state-sync.js';
import { BreakerWindowSync } from './breaker-window-sync.js';
import { OutageReconciliation } from './outage-reconciliation.js';
import { RedisBreakerCommands } from './redis-breaker-commands.js';
import { RedisLink, type RedisSharingHealth } from './redis-link.js';
import {
  REDIS_BREAKER_STORE_OPTIONS_RULE,
  type RedisBreakerStoreOptions,
} from './redis-options.js';
import { TrialLeases } from './trial-leases.js';
import { DEFAULT_TRIAL_LEASE_MS } from './trial-slots.js';

/** Whether this instance shares its breakers now. @publicApi */
export type RedisBreakerStoreHealth = RedisSharingHealth;

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
 * Each concern is a part of its own: state sync, window sync, trial leases and outage
 * reconciliation, all on one clock.
 *
 * @example
 * const store = new RedisBreakerStore({ connection: new Redis(url), keyPrefix: 'agents:' });
 * const breakers = new CircuitBreakerRegistry({ store });
 * @publicApi
 */
export class RedisBreakerStore implements CircuitBreakerStore, SharedBreakerWindow {
  readonly sharedWindow: SharedBreakerWindow = this;
  readonly instanceId: string;
  private readonly link: RedisLink;
  private readonly commands: RedisBreakerCommands;
  private readonly breakers = new Map<string, BreakerHandle>();
  private readonly state: BreakerStateSync;
  private readonly window: BreakerWindowSync;
  private readonly trials: TrialLeases;
  private readonly outage: OutageReconciliation;

  constructor(options: RedisBreakerStoreOptions) {
    assertOptions(REDIS_BREAKER_STORE_OPTIONS_RULE, options, 'RedisBreakerStoreOptions');
    const clock = systemClock;
    this.link = new RedisLink(options, 'breaker-transitions', {
      onMessage: (message) => this.state.received(message),
      onReady: () => void this.outage.rejoin(this.breakers.values()),
    });
    this.instanceId = this.link.instanceId;
    const commands = new RedisBreakerCommands(this.link);
    this.commands = commands;
    this.state = new BreakerStateSync(commands, clock, this.breakers, {
      onVersion: (key, version) => {
        this.trials.keep(key, version);
        this.window.forgetRemote(key);
      },
      onNudge: () => this.window.syncSoon(),
    });
    const leaseMs = options.trialLeaseMs ?? DEFAULT_TRIAL_LEASE_MS;
    this.trials = new TrialLeases(commands, clock, leaseMs, (key, reply) =>
      this.state.follow(key, reply),
    );
    this.outage = new OutageReconciliation(commands, clock, this.state, {
      onRemoteCounts: (key, counts) => this.window.setRemote(key, counts),
    });
    const { link, breakers, state, trials, outage } = this;
    this.window = new BreakerWindowSync(
      { link, commands, clock, breakers, state, trials, outage },
      options.syncIntervalMs ?? 25,
    );
  }

  /** `degraded` while Redis is away or failing: breakers then decide on local state. */
  health(): RedisBreakerStoreHealth {
    return this.link.health();
  }

  async get(key: string): Promise<CircuitBreakerSnapshot | undefined> {
    if (!this.commands.reachable()) return undefined;
    return this.state.get(key);
  }

  async set(key: string, snapshot: CircuitBreakerSnapshot): Promise<void> {
    if (this.state.isApplying(key)) return;
    if (!this.commands.reachable()) {
      // Closed again on its own while Redis was away: what it counted before starts over.
      if (snapshot.state === 'closed') this.outage.forget(key);
      return;
    }
    await this.state.share(key, snapshot);
  }

  attach(breaker: BreakerHandle): void {
    this.breakers.set(breaker.key, breaker);
    if (this.commands.reachable()) void this.outage.join(breaker);
  }

  count(key: string, failed: boolean): Promise<void> | undefined {
    return this.window.count(key, failed);
  }

  remote(key: string): SharedWindowCounts | undefined {
    return this.window.remote(key);
  }

  acquireTrial(key: string, max: number): Promise<boolean> {
    return this.trials.acquire(key, max);
  }

  trialSucceeded(key: string, max: number): Promise<boolean> | undefined {
    return this.trials.succeeded(key, max);
  }

  releaseTrial(key: string): void {
    this.trials.release(key);
  }

  /** Stops syncing and closes the pub/sub connection (the main connection stays the caller's). */
  close(): Promise<void> {
    this.window.close();
    this.link.close();
    return Promise.resolve();
  }
}

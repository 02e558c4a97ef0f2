import type { CircuitState } from '@toolshield/core/events';
import type { ChainableCommander } from 'ioredis';
import {
  ACQUIRE_TRIAL_SCRIPT,
  JOIN_SCRIPT,
  MERGE_SCRIPT,
  RELEASE_TRIAL_SCRIPT,
  RENEW_TRIALS_SCRIPT,
  TRANSITION_SCRIPT,
  TRIAL_SUCCEEDED_SCRIPT,
} from './breaker-scripts.js';
import type { Tally } from './breaker-window-buckets.js';
import type { RedisLink } from './redis-link.js';

/** What a state-changing script answers: applied (1 or 0), then the state the hash holds. */
export type ScriptReply = [applied: number, state: CircuitState, version: number, openedAt: string];

/** Where a merge adds an instance's outage counts (see MERGE_SCRIPT). */
export interface MergeTarget {
  readonly key: string;
  /** The version of the shared state the counts join. */
  readonly version: number;
  /** Indices of the window's buckets, oldest first. */
  readonly window: readonly number[];
  readonly bucketMs: number;
  /** How long a bucket lives (the window plus one bucket). */
  readonly ttlMs: number;
}

/**
 * The Redis commands of the breaker store's parts, each within the store's command timeout
 * (a failure turns its health `degraded`): a seam, so the parts' logic runs in specs without
 * Redis. {@link RedisBreakerCommands} sends them.
 */
export interface BreakerCommands {
  readonly instanceId: string;
  /** Whether commands may be sent now. */
  reachable(): boolean;
  /** Whether the instance shares its state now (its health is `shared`). */
  sharing(): boolean;
  /** The breaker's shared hash (empty when there is none). */
  read(key: string): Promise<Record<string, string>>;
  /** Moves the shared state from `from` to `to` (see TRANSITION_SCRIPT). */
  transition(
    key: string,
    from: CircuitState,
    to: CircuitState,
    openedAt: string,
    now: number,
  ): Promise<ScriptReply>;
  /** Follows the shared state, or writes `state` when there is none (see JOIN_SCRIPT). */
  join(key: string, state: CircuitState, openedAt: string): Promise<ScriptReply>;
  /** Adds `own` to the shared window; answers [added, others' successes, others' failures]. */
  merge(target: MergeTarget, own: readonly Tally[]): Promise<[number, number, number]>;
  /** Takes a trial slot under a lease: the version it was taken at, 0 when none is free. */
  acquireTrial(key: string, max: number, slot: string, leaseMs: number): Promise<number>;
  /** A trial of `slot` succeeded (see TRIAL_SUCCEEDED_SCRIPT). */
  trialSucceeded(key: string, slot: string, max: number, now: number): Promise<ScriptReply>;
  /** Gives a slot back with no outcome. */
  releaseTrial(key: string, slot: string): Promise<unknown>;
}

/**
 * {@link BreakerCommands} over a {@link RedisLink}, and the breaker store's key names: one
 * hash per breaker, its trial slots, and its window's buckets by version and index.
 */
export class RedisBreakerCommands implements BreakerCommands {
  readonly instanceId: string;

  constructor(private readonly link: RedisLink) {
    this.instanceId = link.instanceId;
  }

  reachable(): boolean {
    return this.link.reachable();
  }

  sharing(): boolean {
    return this.link.health().status === 'shared';
  }

  /** `work` within the command timeout. */
  command<T>(work: Promise<T>): Promise<T> {
    return this.link.command(work);
  }

  read(key: string): Promise<Record<string, string>> {
    return this.command(this.link.redis.hgetall(this.hashKey(key)));
  }

  transition(
    key: string,
    from: CircuitState,
    to: CircuitState,
    openedAt: string,
    now: number,
  ): Promise<ScriptReply> {
    return this.script<ScriptReply>(
      TRANSITION_SCRIPT,
      key,
      from,
      to,
      openedAt,
      ...this.origin(key),
      now,
    );
  }

  join(key: string, state: CircuitState, openedAt: string): Promise<ScriptReply> {
    return this.script<ScriptReply>(JOIN_SCRIPT, key, state, openedAt, ...this.origin(key));
  }

  merge(target: MergeTarget, own: readonly Tally[]): Promise<[number, number, number]> {
    const { key, version, window } = target;
    return this.command(
      this.link.redis.eval(
        MERGE_SCRIPT,
        window.length + 1,
        this.hashKey(key),
        ...window.map((index) => this.bucketKey(key, index, version)),
        version,
        this.instanceId,
        this.link.channel,
        target.bucketMs,
        window.at(-1) as number,
        target.ttlMs,
        ...own.flatMap((counts) => [counts.successes, counts.failures]),
      ) as Promise<[number, number, number]>,
    );
  }

  acquireTrial(key: string, max: number, slot: string, leaseMs: number): Promise<number> {
    return this.script<number>(ACQUIRE_TRIAL_SCRIPT, key, max, slot, leaseMs);
  }

  trialSucceeded(key: string, slot: string, max: number, now: number): Promise<ScriptReply> {
    return this.script<ScriptReply>(
      TRIAL_SUCCEEDED_SCRIPT,
      key,
      slot,
      max,
      ...this.origin(key),
      now,
    );
  }

  releaseTrial(key: string, slot: string): Promise<unknown> {
    return this.command(this.link.redis.eval(RELEASE_TRIAL_SCRIPT, 1, this.trialsKey(key), slot));
  }

  /** Queues the renewal of `slots`' leases on `pipeline`. */
  renewTrials(pipeline: ChainableCommander, key: string, leaseMs: number, slots: string[]): void {
    pipeline.eval(RENEW_TRIALS_SCRIPT, 1, this.trialsKey(key), leaseMs, ...slots);
  }

  /** The key of bucket `index` of `key`'s window at `version` of its shared state. */
  bucketKey(key: string, index: number, version: number): string {
    return `${this.link.prefix}breaker:{${key}}:w:${version}:${index}`;
  }

  /** Runs a script on the breaker's hash and trial slots. */
  private script<T>(script: string, key: string, ...args: (string | number)[]): Promise<T> {
    return this.command(
      this.link.redis.eval(script, 2, this.hashKey(key), this.trialsKey(key), ...args),
    ) as Promise<T>;
  }

  /** Who publishes a change, where, for which breaker. */
  private origin(key: string): [string, string, string] {
    return [this.instanceId, this.link.channel, key];
  }

  private hashKey(key: string): string {
    return `${this.link.prefix}breaker:{${key}}`;
  }

  private trialsKey(key: string): string {
    return `${this.link.prefix}breaker:{${key}}:trials`;
  }
}

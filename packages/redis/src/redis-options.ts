import {
  either,
  func,
  integer,
  milliseconds,
  objectOf,
  required,
  text,
  withMethods,
  type OptionRules,
} from '@toolshield/core/internal';
import type { Redis } from 'ioredis';
import type { RedisStoreOptions } from './redis-link.js';

/** @publicApi */
export interface RedisBreakerStoreOptions extends RedisStoreOptions {
  /** How often counts are sent and other instances' counts read back (default 25 ms). */
  readonly syncIntervalMs?: number;
  /**
   * How long a half-open trial slot stays taken when its holder stops renewing it (default
   * 5 s): a live instance renews its slots every third of it, however long its trial runs,
   * so this is how long an instance that died holding a slot keeps it from the others.
   */
  readonly trialLeaseMs?: number;
}

/** @publicApi */
export interface RedisRateLimitStoreOptions extends RedisStoreOptions {
  /** How long a limit's state outlives its last reserved slot when unused (default 10 min). */
  readonly stateTtlMs?: number;
  /** How often this instance says it is alive, for the others' fallback rate (default 1 s). */
  readonly heartbeatMs?: number;
  /** After a failed or slow reservation, how long calls decide locally before trying Redis again (default 1 s). */
  readonly retryAfterFailureMs?: number;
  /**
   * The fewest instances to assume while pacing alone (default 1). An instance paces at the
   * rate divided by the instances it last saw alive; one started while Redis was down has
   * seen none but itself, and would pace at the whole rate. Set it to the instances you run
   * at least, and N instances cut off together stay within the limit.
   */
  readonly minInstances?: number;
}

/** @publicApi */
export interface RedisRetryBudgetStoreOptions extends RedisStoreOptions {
  /** How often counts are added to Redis and the shared totals read back (default 100 ms). */
  readonly syncIntervalMs?: number;
}

/** Options of `ToolShieldRedisModule`. @publicApi */
export interface ToolShieldRedisModuleOptions {
  /** An ioredis client (kept open on shutdown: it is yours) or a `redis://` URL (closed on shutdown). */
  readonly connection: Redis | string;
  /** Prefix of every key and channel, one per application (default `toolshield:`). */
  readonly keyPrefix?: string;
  /** Longest wait for any Redis command (default 250 ms). */
  readonly commandTimeoutMs?: number;
  /** How often counts are exchanged (default 25 ms). */
  readonly syncIntervalMs?: number;
  /** How long the half-open trial slot of an instance that died stays taken (default 5 s). */
  readonly trialLeaseMs?: number;
  /** The fewest instances the rate-limit store assumes while pacing alone (default 1). */
  readonly minInstances?: number;
}

/** An ioredis client: what the stores call on it. */
const CLIENT = withMethods('an ioredis client', ['duplicate', 'eval', 'pipeline']);

/** The rules of the options every store shares. */
const STORE_OPTION_RULES: OptionRules<RedisStoreOptions> = {
  connection: required(CLIENT),
  keyPrefix: text(),
  commandTimeoutMs: milliseconds({ positive: true }),
  instanceId: text(true),
  onError: func(),
};

/** How {@link RedisBreakerStoreOptions} are checked. @internal */
export const REDIS_BREAKER_STORE_OPTIONS_RULE = objectOf<RedisBreakerStoreOptions>({
  ...STORE_OPTION_RULES,
  syncIntervalMs: milliseconds({ positive: true }),
  trialLeaseMs: milliseconds({ positive: true }),
});

/** How {@link RedisRateLimitStoreOptions} are checked. @internal */
export const REDIS_RATE_LIMIT_STORE_OPTIONS_RULE = objectOf<RedisRateLimitStoreOptions>({
  ...STORE_OPTION_RULES,
  stateTtlMs: milliseconds({ positive: true }),
  heartbeatMs: milliseconds({ positive: true }),
  retryAfterFailureMs: milliseconds(),
  minInstances: integer(1),
});

/** How {@link RedisRetryBudgetStoreOptions} are checked. @internal */
export const REDIS_RETRY_BUDGET_STORE_OPTIONS_RULE = objectOf<RedisRetryBudgetStoreOptions>({
  ...STORE_OPTION_RULES,
  syncIntervalMs: milliseconds({ positive: true }),
});

/** How {@link ToolShieldRedisModuleOptions} are checked. @internal */
export const REDIS_MODULE_OPTIONS_RULE = objectOf<ToolShieldRedisModuleOptions>({
  connection: required(either(text(true), CLIENT)),
  keyPrefix: text(),
  commandTimeoutMs: milliseconds({ positive: true }),
  syncIntervalMs: milliseconds({ positive: true }),
  trialLeaseMs: milliseconds({ positive: true }),
  minInstances: integer(1),
});

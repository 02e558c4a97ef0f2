export { RedisBreakerStore } from './redis-breaker-store.js';
export type { RedisBreakerStoreHealth } from './redis-breaker-store.js';
export type { RedisSharingHealth, RedisStoreOptions } from './redis-link.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type {
  FollowedRateChange,
  RateLevelChange,
  RateLimitSlot,
  RateLimitSlotRequest,
  SharedRateChange,
  SharedRateLimiterHandle,
  SharedSchedule,
} from './shared-schedule.js';
export { RedisRetryBudgetStore } from './redis-retry-budget-store.js';
export { ToolShieldRedisModule, ToolShieldRedisModuleBase } from './toolshield-redis.module.js';
export type {
  RedisBreakerStoreOptions,
  RedisRateLimitStoreOptions,
  RedisRetryBudgetStoreOptions,
  ToolShieldRedisModuleOptions,
} from './redis-options.js';
export { RedisCommandTimeoutError } from './with-timeout.js';
export { RedisToolCacheStore } from './redis-tool-cache-store.js';
export type { RedisToolCacheStoreOptions } from './redis-tool-cache-store.js';
export { RedisApprovalStore } from './redis-approval-store.js';
export type { RedisApprovalStoreOptions } from './redis-approval-store.js';

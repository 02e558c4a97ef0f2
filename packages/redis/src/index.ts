export { RedisBreakerStore } from './redis-breaker-store.js';
export type { RedisBreakerStoreHealth, RedisBreakerStoreOptions } from './redis-breaker-store.js';
export type { RedisSharingHealth, RedisStoreOptions } from './redis-link.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export { ToolShieldRedisModule } from './toolshield-redis.module.js';
export type { ToolShieldRedisModuleOptions } from './toolshield-redis.module.js';
export { RedisCommandTimeoutError } from './with-timeout.js';

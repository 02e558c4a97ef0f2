export { RedisBreakerStore } from './redis-breaker-store.js';
export type { RedisBreakerStoreHealth, RedisBreakerStoreOptions } from './redis-breaker-store.js';
export { ToolShieldRedisModule } from './toolshield-redis.module.js';
export type { ToolShieldRedisModuleOptions } from './toolshield-redis.module.js';
export { RedisCommandTimeoutError } from './with-timeout.js';

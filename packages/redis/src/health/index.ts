export { ToolShieldRedisHealthIndicator } from './toolshield-redis.health-indicator.js';

export { RedisServer, redisServerAvailable } from './redis-server.js';

import { Redis } from 'ioredis';
import type { RedisSuite } from './redis-suite.js';

/**
 * Stalls the suite's Redis: a Lua script busy for `ms` (Redis runs nothing else meanwhile).
 * Resolves once the stall is under way (its connection was ready before the script was
 * sent, and 20 ms passed), with the stall's own end to await. The default 1.5 s outlasts
 * what a starved test process takes between starting the stall and sending its command.
 */
export async function stallRedis(
  suite: RedisSuite,
  ms = 1_500,
): Promise<{ ended: Promise<unknown> }> {
  const staller = new Redis(suite.server.url);
  suite.cleanups.push(() => void staller.disconnect());
  await staller.ping();
  const ended = staller.eval(
    `local t = redis.call('TIME'); local s = t[1] * 1000 + t[2] / 1000; repeat t = redis.call('TIME') until t[1] * 1000 + t[2] / 1000 - s > ${ms}; return 1`,
    0,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { ended };
}

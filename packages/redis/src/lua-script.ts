import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its SHA1 (`EVALSHA`: Redis neither receives nor hashes the source
 * again), sent whole (`EVAL`) only when Redis does not have it yet, as after a restart.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Sends the script to Redis ahead of its first run (on every connection): a run that finds
   * it missing is sent again after the refusal, behind commands sent meanwhile, and some
   * scripts must run in the order they were sent.
   */
  load(redis: Redis): Promise<unknown> {
    return redis.script('LOAD', this.source);
  }

  /** Runs the script on `key` with `args`. */
  async run(redis: Redis, key: string, ...args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, 1, key, ...args);
    }
  }
}

import { afterAll, afterEach, beforeAll } from '@jest/globals';
import { RedisServer } from '../../src/testing/index.js';

/** A suite's throwaway Redis and what each test leaves to clean up. */
export interface RedisSuite {
  /** The suite's server, started before the first test. */
  readonly server: RedisServer;
  /** Run after each test, last pushed first. */
  readonly cleanups: (() => Promise<void> | void)[];
}

/** Starts a `redis-server` for the suite, runs each test's cleanups, stops it at the end. */
export function useRedisServer(): RedisSuite {
  let server: RedisServer | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => server?.stop());
  return {
    get server() {
      if (server === undefined) throw new Error('The Redis server starts in beforeAll');
      return server;
    },
    cleanups,
  };
}

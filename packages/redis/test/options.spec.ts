import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { InvalidOptionsError } from '@toolshield/core';
import { Redis } from 'ioredis';
import { RedisBreakerStore, RedisRateLimitStore, ToolShieldRedisModule } from '../src/index.js';

/** A client that never connects: the options are checked before anything is sent. */
const idle = () => new Redis({ lazyConnect: true, enableOfflineQueue: false });

describe('options of the Redis stores and module', () => {
  it('refuses NaN, zero and unknown settings with one error naming each of them', () => {
    const connection = idle();
    const make = () =>
      new RedisRateLimitStore({
        connection,
        heartbeatMs: Number.NaN,
        commandTimeoutMs: 0,
        minInstances: 2.5,
        heartbeat: 1_000,
      } as never);
    expect(make).toThrow(InvalidOptionsError);
    expect(make).toThrow(/heartbeatMs must be a number of milliseconds above 0, got NaN/);
    expect(make).toThrow(/commandTimeoutMs must be a number of milliseconds above 0, got 0/);
    expect(make).toThrow(/minInstances must be an integer from 1 up, got 2.5/);
    expect(make).toThrow(/heartbeat must be absent: it is not an option/);
    expect(() => new RedisBreakerStore({ connection, syncIntervalMs: -1 })).toThrow(
      /syncIntervalMs must be a number of milliseconds above 0, got -1/,
    );
    expect(() => new RedisBreakerStore({ connection, trialLeaseMs: Number.NaN })).toThrow(
      /trialLeaseMs must be a number of milliseconds above 0, got NaN/,
    );
    expect(() => new RedisBreakerStore({ connection: 'redis://x' } as never)).toThrow(
      /connection must be an ioredis client/,
    );
  });

  it('refuses bad module options before it opens a connection', async () => {
    await expect(
      Test.createTestingModule({
        imports: [ToolShieldRedisModule.forRoot({ connection: ' ', commandTimeoutMs: Number.NaN })],
      }).compile(),
    ).rejects.toThrow(
      /connection must be a non-blank string, or an ioredis client[\s\S]*commandTimeoutMs/,
    );
  });

  it('paces alone at the rate divided by minInstances before it has seen any other instance', async () => {
    const connection = idle();
    const store = new RedisRateLimitStore({ connection, minInstances: 3 });
    const alone = new RedisRateLimitStore({ connection });
    expect(store.fallbackRate('search-api', 30)).toBe(10);
    expect(alone.fallbackRate('search-api', 30)).toBe(30);
    await Promise.all([store.close(), alone.close()]);
    connection.disconnect();
  });
});

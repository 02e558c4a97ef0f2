import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { RESERVE_SCRIPT } from '../src/rate-limit-scripts.js';
import { RedisServer } from '../src/testing/index.js';
import { describeWithRedis } from './support/describe-with-redis.js';

/**
 * The reservation script with the time passed in (ARGV[5]) instead of read from Redis, so a
 * property can drive it through arbitrary schedules in no time; the arithmetic is the same.
 */
const SCRIPT_AT = RESERVE_SCRIPT.replace(
  /local t = redis\.call\('TIME'\)\nlocal now = [^\n]+/,
  'local now = tonumber(ARGV[5])',
);

interface Arrival {
  readonly instance: number;
  readonly gapMs: number;
  readonly maxWaitMs: number;
  /** How many calls arrive at once on this instance (sent concurrently). */
  readonly together: number;
}

describeWithRedis('the shared GCRA reservation script on a real Redis', () => {
  let server: RedisServer;
  let instances: Redis[];
  let run = 0;

  beforeAll(async () => {
    server = await RedisServer.start();
    instances = [new Redis(server.url), new Redis(server.url), new Redis(server.url)];
  });
  afterAll(async () => {
    for (const connection of instances) connection.disconnect();
    await server.stop();
  });

  it('never grants several instances together more than burst + window x rate in any window', async () => {
    expect(SCRIPT_AT).not.toBe(RESERVE_SCRIPT);
    const arrival: fc.Arbitrary<Arrival> = fc.record({
      instance: fc.integer({ min: 0, max: 2 }),
      gapMs: fc.integer({ min: 0, max: 300 }),
      maxWaitMs: fc.integer({ min: 0, max: 3_000 }),
      together: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(arrival, { maxLength: 25 }),
        async (rate, burst, arrivals) => {
          const key = `property:{run-${run++}}`;
          const departures: number[] = [];
          let now = 1_000_000;
          for (const call of arrivals) {
            now += call.gapMs;
            const connection = instances[call.instance] as Redis;
            const replies = await Promise.all(
              Array.from(
                { length: call.together },
                () =>
                  connection.eval(
                    SCRIPT_AT,
                    1,
                    key,
                    1000 / rate,
                    burst,
                    call.maxWaitMs,
                    60_000,
                    now,
                  ) as Promise<[number, string]>,
              ),
            );
            for (const [granted, waitMs] of replies) {
              expect(Number(waitMs)).toBeGreaterThanOrEqual(0);
              if (granted === 1) {
                expect(Number(waitMs)).toBeLessThanOrEqual(call.maxWaitMs);
                departures.push(now + Number(waitMs));
              } else expect(Number(waitMs)).toBeGreaterThan(call.maxWaitMs);
            }
          }
          departures.sort((x, y) => x - y);
          departures.forEach((first, i) =>
            departures.slice(i).forEach((last, count) => {
              expect(count + 1).toBeLessThanOrEqual(
                burst + ((last - first + 1e-6) * rate) / 1000 + 1e-9,
              );
            }),
          );
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});

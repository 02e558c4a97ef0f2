import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { LIMIT } from './fixtures/instance.js';
import { FixtureUpstream } from './support/fixture-upstream.js';
import { InstanceProcess } from './support/instance-process.js';
import { RedisServer } from '../src/testing/index.js';
import { describeWithRedis } from './support/describe-with-redis.js';

describeWithRedis(
  'three rate-limited app instances in their own processes, one Redis, one upstream',
  () => {
    let redis: RedisServer;
    let upstream: FixtureUpstream;
    const running: InstanceProcess[] = [];

    async function instances(prefix: string): Promise<InstanceProcess[]> {
      const env = { REDIS_URL: redis.url, UPSTREAM_URL: upstream.url, KEY_PREFIX: prefix };
      const started = await Promise.all(
        Array.from({ length: 3 }, () => InstanceProcess.start(env)),
      );
      running.push(...started);
      const deadline = Date.now() + 5_000;
      const shared = async () =>
        (await Promise.all(started.map((one) => one.state()))).every(
          (state) => state.rateLimitHealth === 'shared',
        );
      while (!(await shared())) {
        if (Date.now() > deadline) throw new Error('the instances did not join Redis within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return started;
    }

    beforeAll(async () => {
      [redis, upstream] = await Promise.all([RedisServer.start(), FixtureUpstream.start()]);
    }, 20_000);
    afterAll(async () => {
      await Promise.all(running.map((instance) => instance.stop()));
      await Promise.all([redis.stop(), upstream.stop()]);
    }, 20_000);

    // The GCRA bound: over any window of W seconds, at most burst + W x rate calls leave (the
    // burst only after a quiet spell, so in practice once, at the start). The upstream counts
    // arrivals, which also carry the delivery jitter of four busy processes on a shared machine.
    it(`keeps the three together within ${LIMIT.rate} calls a second at the upstream (burst ${LIMIT.burst})`, async () => {
      const three = await instances('limited:');
      upstream.perSecond.clear();
      upstream.arrivals.length = 0;
      upstream.requests = 0;
      const outcomes = await Promise.all(three.map((instance) => instance.concurrent(100)));
      process.stdout.write(
        `upstream calls per second: ${JSON.stringify([...upstream.perSecond.values()])}\n`,
      );
      for (const calls of outcomes) {
        expect(calls).toHaveLength(100);
        expect(calls.every((call) => call.outcome === 'ok')).toBe(true);
      }
      expect(upstream.requests).toBe(300);
      // Unshared, three instances would send 150 a second: the 300 calls would take 2 s. Shared,
      // they take (300 - burst) / rate = 5.9 s, less at most 100 ms of delivery jitter.
      const spanMs = Math.max(...upstream.arrivals) - Math.min(...upstream.arrivals);
      expect(spanMs).toBeGreaterThanOrEqual(((300 - LIMIT.burst) * 1_000) / LIMIT.rate - 100);
      for (const count of upstream.perSecond.values())
        expect(count).toBeLessThanOrEqual(LIMIT.rate + LIMIT.burst);
    }, 60_000);

    it('loses no call when Redis is killed in the middle of a rate-limited run', async () => {
      const three = await instances('limited-outage:');
      const runs = Promise.all(three.map((instance) => instance.concurrent(60)));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.kill();
      const outcomes = await runs;
      for (const calls of outcomes) {
        expect(calls).toHaveLength(60);
        expect(calls.filter((call) => call.outcome !== 'ok')).toEqual([]);
      }
      expect((await (three[0] as InstanceProcess).state()).rateLimitHealth).toBe('degraded');
    }, 60_000);
  },
);

import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { HttpException, Injectable } from '@nestjs/common';
import { sleep, type Clock, type ToolCallContext, type ToolFailure } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { RateLimiter, type RateLimitStore } from '@toolshield/core/internal';
import { Tool, ToolCall, ToolRateLimiters } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/** Tools calling a pretend upstream that allows `allowed` calls, then answers 429 with Retry-After. */
@Injectable()
class SearchTools {
  calls: number[] = [];
  allowed = Number.POSITIVE_INFINITY;
  headers: Record<string, string> = {};
  now: () => number = () => 0;

  private answer(call: ToolCallContext) {
    this.calls.push(this.now());
    if (this.calls.length > this.allowed) {
      throw new HttpException({ response: 'slow down', headers: { 'retry-after': '2' } }, 429, {
        cause: { headers: { 'retry-after': '2' } },
      });
    }
    call.reportUpstreamHeaders?.(this.headers);
    return { hit: this.calls.length };
  }

  @Tool({ description: 'Searches the web.', rateLimit: { key: 'search-api' } })
  search(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.answer(call);
  }

  @Tool({ description: 'Searches news.', rateLimit: { key: 'search-api' } })
  news(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.answer(call);
  }

  @Tool({ description: 'Reads a page.', rateLimit: { rate: 10, adaptive: true } })
  page(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.answer(call);
  }
}

/** A tool whose upstream answers each call after its planned delay, refusing some (429). */
@Injectable()
class FeedTools {
  plans: { delayMs: number; refuse: boolean }[] = [];
  clock?: Clock;

  @Tool({ description: 'Reads a feed.', rateLimit: { rate: 100, adaptive: true } })
  async feed() {
    const plan = this.plans.shift() ?? { delayMs: 0, refuse: false };
    await sleep(this.clock as Clock, plan.delayMs);
    if (plan.refuse) throw new HttpException('slow down', 429);
    return { ok: true };
  }
}

async function startApp(rateLimitStore?: RateLimitStore) {
  const app = await createToolApp([SearchTools], {
    rateLimits: { 'search-api': { rate: 5, burst: 2, maxWaitMs: 1_000 } },
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
  });
  const tools = app.moduleRef.get(SearchTools);
  tools.now = () => app.clock.now();
  const events: ToolEvent[] = [];
  app.executor.events$.subscribe((event) => events.push(event));
  return { ...app, tools, events };
}

describe('rate limits through ToolExecutor', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  afterEach(async () => {
    await app.close();
    expect(app.clock.pendingTimers).toBe(0);
  });

  it('paces every tool naming one key through one limiter, in order, and reports the waits', async () => {
    app = await startApp();
    const calls = ['search', 'news', 'search', 'news'].map((name, i) =>
      app.executor.execute({ id: `c${i}`, name, arguments: {} }),
    );
    await app.clock.advanceBy(1_000);
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((outcome) => outcome.success)).toBe(true);
    expect(app.tools.calls).toEqual([0, 0, 200, 400]);
    expect(app.events.filter((event) => event.type === 'rate_limit.waiting')).toHaveLength(2);
  });

  it("makes each key's limiter through the module's rateLimitStore, once, and paces by it", async () => {
    const asked: unknown[] = [];
    app = await startApp({
      limiter: (key, options, clock, observe) => {
        asked.push({ key, rate: options.rate, burst: options.burst, maxWaitMs: options.maxWaitMs });
        return new RateLimiter(key, { ...options, rate: 1, burst: 1 }, clock, observe);
      },
    });
    const calls = ['search', 'news'].map((name, i) =>
      app.executor.execute({ id: `c${i}`, name, arguments: {} }),
    );
    await app.clock.advanceBy(1_000);
    expect((await Promise.all(calls)).every((outcome) => outcome.success)).toBe(true);
    expect(app.tools.calls).toEqual([0, 1_000]);
    expect(asked).toEqual([{ key: 'search-api', rate: 5, burst: 2, maxWaitMs: 1_000 }]);
  });

  it('refuses at once a call whose turn would pass the wait it allows, with retryAfterMs', async () => {
    app = await startApp();
    const queued = Array.from({ length: 7 }, (_, i) =>
      app.executor.execute({ id: `c${i}`, name: 'search', arguments: {} }),
    );
    const refused = (await app.executor.execute(
      { id: 'late', name: 'search', arguments: {} },
      { rateLimitMaxWaitMs: 100 },
    )) as ToolFailure;
    expect(refused).toMatchObject({ success: false, errorType: 'rate_limited', retryCount: 0 });
    expect(refused.retryAfterMs).toBeGreaterThan(100);
    expect(app.events).toContainEqual(
      expect.objectContaining({ type: 'rate_limit.refused', callId: 'late', key: 'search-api' }),
    );
    await app.clock.advanceBy(2_000);
    await Promise.all(queued);
  });

  it("an adaptive limit pauses for the upstream's Retry-After and slows down", async () => {
    app = await startApp();
    app.tools.allowed = 1;
    const first = await app.executor.execute({ id: 'a', name: 'page', arguments: {} });
    expect(first.success).toBe(true);
    const limiters = app.moduleRef.get(ToolRateLimiters);
    const [before] = limiters.snapshots();
    const rateBefore = before?.rate ?? Number.NaN;
    const second = app.executor.execute({ id: 'b', name: 'page', arguments: {} });
    await app.clock.advanceBy(200);
    expect(await second).toMatchObject({ success: false, errorType: 'rate_limited' });
    const [snapshot] = limiters.snapshots();
    expect(snapshot).toMatchObject({ key: 'page' });
    expect(snapshot?.rate).toBeLessThan(rateBefore);
    // The refusal came when the call left the queue (one interval of the rate slow start
    // reached after the first success). Retry-After: 2, in whole seconds, rounds the
    // upstream's wait up: every caller pauses a second less, 1 s from then.
    expect(snapshot?.nextAtMs).toBeCloseTo(1_000 / rateBefore + 1_000, 0);
    expect(app.events.some((event) => event.type === 'rate_limit.changed')).toBe(true);
  });

  it('an adaptive limit takes the refusal of a request sent before its last slow-down for an echo, not news', async () => {
    const feeds = await createToolApp([FeedTools]);
    const tools = feeds.moduleRef.get(FeedTools);
    tools.clock = feeds.clock;
    // Sent 10 ms apart: refused at 100 ms, a success at 105, refused at 110 (sent at 20 ms,
    // before the slow-down at 100).
    tools.plans = [
      { delayMs: 100, refuse: true },
      { delayMs: 95, refuse: false },
      { delayMs: 90, refuse: true },
    ];
    const calls = ['a', 'b', 'c'].map((id) =>
      feeds.executor.execute({ id, name: 'feed', arguments: {} }),
    );
    await feeds.clock.advanceBy(200);
    expect((await Promise.all(calls)).map((outcome) => outcome.success)).toEqual([
      false,
      true,
      false,
    ]);
    // Slowed once (100 × 0.7), not twice (49, as when the last refusal was taken for news).
    expect(feeds.moduleRef.get(ToolRateLimiters).snapshots()[0]?.rate).toBeCloseTo(70);
    await feeds.close();
  });

  it('an adaptive limit hears when each admitted request was sent, too', async () => {
    const feeds = await createToolApp([FeedTools]);
    const tools = feeds.moduleRef.get(FeedTools);
    tools.clock = feeds.clock;
    const heard = jest.spyOn(RateLimiter.prototype, 'admitted');
    try {
      tools.plans = [{ delayMs: 80, refuse: false }];
      const sentAt = feeds.clock.now();
      const call = feeds.executor.execute({ id: 'a', name: 'feed', arguments: {} });
      await feeds.clock.advanceBy(100);
      expect((await call).success).toBe(true);
      // Answered 80 ms after it was sent: the limiter hears the send.
      expect(heard).toHaveBeenCalledTimes(1);
      expect(heard.mock.calls[0]?.[1]).toBe(sentAt);
    } finally {
      heard.mockRestore();
      await feeds.close();
    }
  });

  it('an adaptive limit takes the limit the upstream announces in its headers', async () => {
    app = await startApp();
    app.tools.headers = { 'RateLimit-Policy': '"default";q=4;w=1', RateLimit: '"default";r=3;t=1' };
    await app.executor.execute({ id: 'a', name: 'page', arguments: {} });
    expect(app.moduleRef.get(ToolRateLimiters).snapshots()[0]).toMatchObject({
      key: 'page',
      rate: 4,
    });
  });
});

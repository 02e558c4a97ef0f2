import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { CancelledError } from '../../errors/cancelled.error.js';
import { RateLimitedError } from '../../errors/rate-limited.error.js';
import { RateLimiter, type RateLimitEvent } from './rate-limiter.js';

function limiterAt(options: ConstructorParameters<typeof RateLimiter>[1]) {
  const clock = new VirtualClock({ startMs: 1_000_000 });
  const events: RateLimitEvent[] = [];
  const limiter = new RateLimiter('api', options, clock, (event) => events.push(event));
  const leftAt: Record<string, number> = {};
  const go = (id: string, deadlineMs?: number, signal?: AbortSignal) =>
    limiter.acquire({ deadlineMs, signal }).then(() => {
      leftAt[id] = clock.now() - 1_000_000;
    });
  return { clock, limiter, events, leftAt, go };
}

describe('RateLimiter', () => {
  it('lets a burst go at once, then spaces calls at the rate, in arrival order', async () => {
    const { clock, leftAt, go, events } = limiterAt({ rate: 10, burst: 3 });
    const calls = ['a', 'b', 'c', 'd', 'e'].map((id) => go(id));
    await clock.advanceBy(1_000);
    await Promise.all(calls);
    expect(leftAt).toEqual({ a: 0, b: 0, c: 0, d: 100, e: 200 });
    expect(events.filter((event) => event.kind === 'waiting')).toHaveLength(2);
  });

  it('refuses at once a call whose wait would pass its deadline, with the wait as retryAfterMs', async () => {
    const { clock, limiter, go, events } = limiterAt({ rate: 2 });
    await go('a');
    const late = limiter.acquire({ deadlineMs: clock.now() + 100 });
    await expect(late).rejects.toBeInstanceOf(RateLimitedError);
    await expect(late).rejects.toMatchObject({ type: 'rate_limited', retryAfterMs: 500 });
    expect(events.at(-1)).toEqual({ kind: 'refused', retryAfterMs: 500, reason: 'wait' });
    expect(limiter.queued).toBe(0);
  });

  it('refuses past maxWaitMs and past maxQueue', async () => {
    const { limiter } = limiterAt({ rate: 1, maxWaitMs: 1_500, maxQueue: 1 });
    await limiter.acquire();
    const queued = limiter.acquire();
    await expect(limiter.acquire()).rejects.toMatchObject({ type: 'rate_limited' });
    expect(limiter.queued).toBe(1);
    limiter.close(new Error('shutdown'));
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
  });

  it('takes an aborted waiter out of the queue and moves the next one up', async () => {
    const { clock, leftAt, go } = limiterAt({ rate: 10 });
    const controller = new AbortController();
    await go('a');
    const b = go('b', undefined, controller.signal);
    const c = go('c');
    controller.abort();
    await expect(b).rejects.toBeInstanceOf(CancelledError);
    await clock.advanceBy(1_000);
    await c;
    expect(leftAt).toEqual({ a: 0, c: 100 });
  });

  it('holds every call back while paused, then resumes at the rate', async () => {
    const { clock, limiter, leftAt, go, events } = limiterAt({ rate: 100, burst: 5 });
    limiter.pauseUntil(clock.now() + 2_000);
    const calls = ['a', 'b'].map((id) => go(id));
    await clock.advanceBy(3_000);
    await Promise.all(calls);
    expect(leftAt).toEqual({ a: 2_000, b: 2_000 });
    expect(events[0]).toEqual({ kind: 'paused', untilMs: 1_002_000 });
  });

  it('a slow-down pushes out waiters whose turn now passes their deadline', async () => {
    const { clock, limiter, go, leftAt } = limiterAt({ rate: 10 });
    await go('a');
    const b = go('b', clock.now() + 250);
    const c = go('c', clock.now() + 350);
    const cRefused = expect(c).rejects.toMatchObject({ type: 'rate_limited', retryAfterMs: 400 });
    limiter.setRate(5, 'test');
    await cRefused;
    await clock.advanceBy(1_000);
    await b;
    expect(leftAt).toEqual({ a: 0, b: 200 });
  });

  it('tryAcquire never allocates a wait and never jumps the queue', async () => {
    const { clock, limiter } = limiterAt({ rate: 10 });
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
    const waiting = limiter.acquire();
    await clock.advanceBy(50);
    expect(limiter.tryAcquire()).toBe(false);
    await clock.advanceBy(50);
    await waiting;
    expect(limiter.queued).toBe(0);
  });
});

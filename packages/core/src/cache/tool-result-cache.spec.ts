import { describe, expect, it } from '@jest/globals';
import { sleep } from '../clock/sleep.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { toolCacheKey } from './cache-key.js';
import { InMemoryToolCacheStore } from './in-memory-tool-cache-store.js';
import { ToolResultCache, type ToolCacheLookup } from './tool-result-cache.js';

const asUpstreamDown = () => 'upstream_unavailable' as const;

function setUp() {
  const clock = new VirtualClock();
  const cache = new ToolResultCache(new InMemoryToolCacheStore({ clock }), clock);
  const lookups: ToolCacheLookup[] = [];
  let calls = 0;
  let fail = false;
  const run = async () => {
    calls += 1;
    await sleep(clock, 10);
    if (fail) throw new Error('503');
    return { answer: calls };
  };
  const ask = (args: unknown = { q: 'nest' }) =>
    cache.answer(
      toolCacheKey('search', args),
      { ttlMs: 1_000, staleIfErrorMs: 5_000 },
      run,
      asUpstreamDown,
      (lookup) => lookups.push(lookup),
    );
  return { clock, ask, lookups, calls: () => calls, failNext: () => (fail = true) };
}

describe('ToolResultCache', () => {
  it('runs identical concurrent calls once and answers fresh ones from the entry', async () => {
    const { clock, ask, lookups, calls } = setUp();
    const answers = Array.from({ length: 50 }, () => ask());
    await clock.advanceBy(10);
    const values = (await Promise.all(answers)).map((answer) => answer.value);
    expect(values.every((value) => value === values[0])).toBe(true);
    expect(calls()).toBe(1);
    expect(lookups.filter((l) => l === 'joined')).toHaveLength(49);
    expect((await ask({ q: 'nest' })).lookup).toBe('hit');
    expect(calls()).toBe(1);
  });

  it('keys arguments canonically', async () => {
    const { clock, ask } = setUp();
    const first = ask({ a: 1, b: { c: 2, d: 3 } });
    await clock.advanceBy(10);
    await first;
    expect((await ask({ b: { d: 3, c: 2 }, a: 1 })).lookup).toBe('hit');
  });

  it('answers a failed call with the stale entry within staleIfErrorMs, with its age', async () => {
    const { clock, ask, failNext } = setUp();
    const first = ask();
    await clock.advanceBy(10);
    await first;
    await clock.advanceBy(3_000);
    failNext();
    const stale = ask();
    await clock.advanceBy(10);
    expect(await stale).toEqual({
      value: { answer: 1 },
      lookup: 'stale',
      ageMs: 3_010,
      staleBecause: 'upstream_unavailable',
    });
    await clock.advanceBy(3_000);
    const tooOld = ask();
    const settled = tooOld.catch((error: unknown) => error);
    await clock.advanceBy(10);
    expect(await settled).toEqual(new Error('503'));
  });

  it('runs a joined call anew when the call it joined was cancelled by its caller', async () => {
    const clock = new VirtualClock();
    const cache = new ToolResultCache(new InMemoryToolCacheStore({ clock }), clock);
    let runs = 0;
    const key = toolCacheKey('search', { q: 'nest' });
    const options = { ttlMs: 1_000 };
    const typeOf = (error: unknown) =>
      error === 'aborted' ? ('cancelled' as const) : ('internal' as const);
    const leader = cache.answer(
      key,
      options,
      async () => {
        runs += 1;
        await sleep(clock, 10);
        throw 'aborted';
      },
      typeOf,
    );
    const joined = cache.answer(
      key,
      options,
      async () => {
        runs += 1;
        return 'fresh';
      },
      typeOf,
    );
    const settled = leader.catch((error: unknown) => error);
    await clock.advanceBy(10);
    expect(await settled).toBe('aborted');
    expect(await joined).toEqual({ value: 'fresh', lookup: 'miss' });
    expect(runs).toBe(2);
  });
});

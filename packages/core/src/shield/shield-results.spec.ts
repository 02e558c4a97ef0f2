import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../clock/virtual-clock.js';
import { InvalidOptionsError } from '../options/invalid-options.error.js';
import { shieldTool } from './shield-tool.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('shieldTool output budgets and cache', () => {
  it('cuts an output over its budget, with a note, and leaves small ones alone', async () => {
    const log = shieldTool(
      (_args: object) => Array.from({ length: 5_000 }, (_, n) => `line ${n}`),
      {
        name: 'read_log',
        output: { maxBytes: 2_000 },
      },
    );
    const outcome = await log({});
    expect(outcome.success && outcome.output).toMatchObject({
      note: expect.stringMatching(/^Output cut to fit 2,000 bytes: showing \d+ of 5,000 items;/),
    });
    expect(outcome.metadata.output).toMatchObject({ cut: true, items: { total: 5_000 } });
    const small = await shieldTool(() => ({ ok: true }), { name: 'small' })({});
    expect(small).toMatchObject({ success: true, output: { ok: true } });
  });

  it('shares one run among identical concurrent calls, and answers stale while the upstream is down', async () => {
    const clock = new VirtualClock();
    let upstreamCalls = 0;
    let down = false;
    const search = shieldTool(
      async (args: { q: string }) => {
        upstreamCalls += 1;
        await Promise.resolve();
        if (down) throw refused();
        return { q: args.q, hits: 3 };
      },
      {
        name: 'web_search',
        idempotent: true,
        readOnly: true,
        retry: false,
        clock,
        cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 },
      },
    );
    const answers = await Promise.all(Array.from({ length: 10 }, () => search({ q: 'nest' })));
    expect(upstreamCalls).toBe(1);
    expect(answers.map((a) => (a.metadata.cache as { lookup: string }).lookup).sort()).toEqual([
      ...Array(9).fill('joined'),
      'miss',
    ]);
    await clock.advanceBy(120_000);
    down = true;
    const stale = await search({ q: 'nest' });
    expect(stale).toMatchObject({
      success: true,
      output: {
        note: expect.stringMatching(/^Stale answer from 2 min ago/),
        output: { q: 'nest', hits: 3 },
      },
      metadata: { cache: { lookup: 'stale', ageMs: 120_000, staleBecause: 'network' } },
    });
    expect(await search({ q: 'other' })).toMatchObject({ success: false, errorType: 'network' });
  });

  it('refuses a cache on a tool not declared idempotent and read-only', () => {
    expect(() =>
      shieldTool(() => 1, { name: 'pay', idempotent: true, cache: { ttlMs: 1_000 } }),
    ).toThrow(InvalidOptionsError);
  });
});

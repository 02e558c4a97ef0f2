import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { Tool } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

@Injectable()
class SearchTools {
  upstreamCalls = 0;
  down = false;

  @Tool({
    description: 'Searches the web.',
    idempotent: true,
    annotations: { readOnlyHint: true },
    breaker: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 30_000 },
    cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 },
  })
  async web_search(args: { q: string }) {
    this.upstreamCalls += 1;
    await Promise.resolve();
    if (this.down) throw new ServiceUnavailableException('search upstream down');
    return { q: args.q, hits: [`${args.q} result`], call: this.upstreamCalls };
  }

  @Tool({
    description: 'Account notes.',
    idempotent: true,
    annotations: { readOnlyHint: true },
    cache: {
      ttlMs: 60_000,
      scope: (call: ToolCallContext) => call.metadata.userId as string | undefined,
    },
  })
  notes() {
    this.upstreamCalls += 1;
    return { n: this.upstreamCalls };
  }
}

/** Retries would wait on the virtual clock; these calls fail at once. */
const NO_RETRIES = { defaults: { retry: { maxRetries: 0 } } };

describe('the result cache through ToolExecutor', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => app.close());

  const search = (id: string, q = 'nest') =>
    app.executor.execute({ id, name: 'web_search', arguments: { q } });

  it('runs 50 identical concurrent calls once, each with its own call id', async () => {
    app = await createToolApp([SearchTools], NO_RETRIES);
    const tools = app.moduleRef.get(SearchTools);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => search(`c${i}`)));
    expect(tools.upstreamCalls).toBe(1);
    expect(outcomes.map((o) => o.callId)).toEqual(outcomes.map((_, i) => `c${i}`));
    expect(outcomes.every((o) => o.success)).toBe(true);
    expect(
      outcomes.filter((o) => (o.metadata.cache as { lookup: string }).lookup === 'joined'),
    ).toHaveLength(49);
  });

  it('answers a fresh entry without a call, and calls again once it is stale', async () => {
    app = await createToolApp([SearchTools], NO_RETRIES);
    const tools = app.moduleRef.get(SearchTools);
    await search('a');
    const hit = await search('b');
    expect(hit.metadata.cache).toEqual({ lookup: 'hit', ageMs: 0 });
    expect(tools.upstreamCalls).toBe(1);
    await app.clock.advanceBy(60_000);
    expect((await search('c')).metadata.cache).toEqual({ lookup: 'miss' });
    expect(tools.upstreamCalls).toBe(2);
  });

  it('answers from the stale entry, marked with its age, while the upstream is down and the breaker open', async () => {
    app = await createToolApp([SearchTools], NO_RETRIES);
    const tools = app.moduleRef.get(SearchTools);
    await search('a');
    await app.clock.advanceBy(120_000);
    tools.down = true;
    const outcomes = [];
    for (let i = 0; i < 20; i += 1) outcomes.push(await search(`s${i}`));
    expect(outcomes.every((o) => o.success)).toBe(true);
    expect(tools.upstreamCalls).toBeLessThan(5); // the breaker opened: later calls never reached it
    const last = outcomes.at(-1);
    expect(last?.metadata.cache).toEqual({
      lookup: 'stale',
      ageMs: 120_000,
      staleBecause: 'circuit_open',
    });
    expect(last?.success && last.output).toEqual({
      note: 'Stale answer from 2 min ago: the tool failed now (circuit_open), so this is the last answer it gave; it may be out of date.',
      output: { q: 'nest', hits: ['nest result'], call: 1 },
    });
  });

  it('fails as before once the stale entry is older than staleIfErrorMs, and never for other arguments', async () => {
    app = await createToolApp([SearchTools], NO_RETRIES);
    const tools = app.moduleRef.get(SearchTools);
    await search('a');
    tools.down = true;
    expect(await search('b', 'other')).toMatchObject({
      success: false,
      errorType: 'upstream_unavailable',
    });
    await app.clock.advanceBy(660_001);
    expect(await search('c')).toMatchObject({ success: false });
  });

  it('keeps scoped entries apart, and does not cache a call without a scope value', async () => {
    app = await createToolApp([SearchTools], NO_RETRIES);
    const tools = app.moduleRef.get(SearchTools);
    const notes = (id: string, userId?: string) =>
      app.executor.execute(
        { id, name: 'notes', arguments: {} },
        { metadata: userId ? { userId } : {} },
      );
    await notes('1', 'ann');
    expect((await notes('2', 'ann')).metadata.cache).toMatchObject({ lookup: 'hit' });
    expect((await notes('3', 'bob')).metadata.cache).toEqual({ lookup: 'miss' });
    expect((await notes('4')).metadata.cache).toBeUndefined();
    expect(tools.upstreamCalls).toBe(3);
  });

  it('refuses a cache on a tool that is not idempotent and read-only, in one line at startup', async () => {
    @Injectable()
    class Payments {
      @Tool({ description: 'Pays.', cache: { ttlMs: 1_000 } })
      pay() {
        return 'paid';
      }
    }
    await expect(createToolApp([Payments])).rejects.toThrow(
      /^Invalid tool options: @Tool\(pay\)\.cache must be absent unless the tool is idempotent and read-only .*$/,
    );
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import {
  InvalidOptionsError,
  renderFailureText,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import type { ExecuteOptions, ToolShieldModuleOptions } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { DeadUpstreamTools } from './fixtures/dead-upstream.tools.js';

describe('retry budget through ToolExecutor', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>> | undefined;
  afterEach(() => ctx?.close());

  async function start(options: ToolShieldModuleOptions = {}) {
    ctx = await createToolApp([DeadUpstreamTools], options);
    const events: ToolEvent[] = [];
    ctx.executor.events$.subscribe((event) => events.push(event));
    const { clock, executor } = ctx;
    const tools = ctx.moduleRef.get(DeadUpstreamTools);
    let id = 0;
    /** `callers` concurrent calls of `name`, run to their end in virtual time. */
    const wave = async (name: string, callers: number, options: ExecuteOptions = {}) => {
      const calls = Array.from({ length: callers }, () =>
        executor.execute({ id: `c${++id}`, name, arguments: {} }, options),
      );
      const outcomes: ToolOutcome[] = [];
      for (const call of calls) outcomes.push(await settle(clock, call));
      return outcomes as ToolFailure[];
    };
    return { events, tools, wave, clock };
  }

  it('keeps a dead upstream under 1.2 requests per call by default (a tool with 5 retries made 6)', async () => {
    const { tools, wave, clock, events } = await start();
    let calls = 0;
    for (let second = 0; second < 10; second++) {
      await wave('web_search', 100);
      calls += 100;
      await clock.advanceBy(1_000);
    }
    expect((tools.received.get('search-api') ?? 0) / calls).toBeLessThanOrEqual(1.2);
    const withheld = events.filter((event) => event.type === 'retry.withheld');
    expect(withheld.length).toBeGreaterThan(0);
    expect(withheld[0]).toMatchObject({
      tool: 'web_search',
      key: 'web_search',
      errorType: 'network',
    });
  });

  it('returns the withheld failure at once, retryCount truthful, telling the model why', async () => {
    const { wave, events } = await start();
    const [failure] = await wave('strict', 1);
    expect(failure).toMatchObject({
      success: false,
      errorType: 'network',
      retryCount: 0,
      retryMax: 2,
      metadata: { attempts: 1, retriesWithheld: true, durationMs: 0 },
    });
    expect(renderFailureText(failure as ToolFailure)).toMatch(
      /Retries were withheld to protect the upstream/,
    );
    expect(events.map((event) => event.type)).toEqual([
      'call.started',
      'attempt.failed',
      'retry.withheld',
      'call.failed',
    ]);
  });

  it('shares one budget between the tools of one named breaker, and of one named rate limit', async () => {
    const budget = { ratio: 0, minRetriesPerSecond: 0, burst: 1 };
    const shared = { defaults: { retry: { retryBudget: budget } } };
    const { wave, events } = await start(shared);
    const [news] = await wave('news_search', 1);
    const [images] = await wave('image_search', 1);
    // One retry in the budget: the first call's first retry takes it, its second is withheld.
    expect(news).toMatchObject({ retryCount: 1, metadata: { retriesWithheld: true } });
    expect(images).toMatchObject({ retryCount: 0, metadata: { retriesWithheld: true } });
    const [quotes] = await wave('quotes', 1);
    const [rates] = await wave('rates', 1);
    expect(quotes).toMatchObject({ retryCount: 1 });
    expect(rates).toMatchObject({ retryCount: 0, metadata: { retriesWithheld: true } });
    expect(
      events.filter((event) => event.type === 'retry.withheld').map((event) => event.key),
    ).toEqual(['search-api', 'search-api', 'market-data', 'market-data']);
  });

  it('is switched off per call, per tool or for the module with retryBudget: false', async () => {
    const { wave, tools } = await start({ defaults: { retry: { retryBudget: false } } });
    await wave('web_search', 50);
    expect(tools.received.get('search-api')).toBe(300);
    const [strict] = await wave('strict', 1, { retry: { retryBudget: false } });
    expect(strict).toMatchObject({ retryCount: 2 });
    await ctx?.close();
    const again = await start();
    const [loose] = await again.wave('strict', 1, { retry: { retryBudget: false } });
    expect(loose).toMatchObject({ retryCount: 2 });
  });

  it('refuses bad budget options at startup and per call, naming the field', async () => {
    await expect(
      createToolApp([DeadUpstreamTools], {
        defaults: { retry: { retryBudget: { ratio: Number.NaN } } },
      }),
    ).rejects.toThrow(
      /defaults\.retry\.retryBudget\.ratio must be a number from 0 to 1000, got NaN/,
    );
    await expect(
      createToolApp([DeadUpstreamTools], {
        retryBudgetStore: { recordCall: () => undefined } as never,
      }),
    ).rejects.toThrow(InvalidOptionsError);
    const { wave } = await start();
    const [bad] = await wave('web_search', 1, { retry: { retryBudget: { burst: -1 } } });
    expect(bad).toMatchObject({ success: false });
    expect(bad?.error).toMatch(/retry\.retryBudget\.burst must be a number from 0 to 1000000/);
  });
});

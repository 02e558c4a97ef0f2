import { describe, expect, it } from '@jest/globals';
import { ToolCircuitBreakers } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { FlakyTools } from './fixtures/flaky.tools.js';

describe('application shutdown', () => {
  it('leaves nothing running after app.close(): open breakers, finished retries, timeouts, events', async () => {
    const ctx = await createToolApp([FlakyTools]);
    const tools = ctx.moduleRef.get(FlakyTools);
    const breakers = ctx.moduleRef.get(ToolCircuitBreakers);
    let completed = false;
    ctx.executor.events$.subscribe({ complete: () => (completed = true) });

    tools.steps = ['econnreset', 'ok'];
    await settle(ctx.clock, ctx.executor.execute({ id: 'a', name: 'idempotent', arguments: {} }));
    tools.steps = [{ slowMs: 10 }];
    await settle(ctx.clock, ctx.executor.execute({ id: 'b', name: 'quick', arguments: {} }));
    await breakers.open('upstream');
    await breakers.open('tenanted:acme');
    expect(ctx.clock.pendingTimers).toBe(2);

    await ctx.close();
    expect(ctx.clock.pendingTimers).toBe(0);
    expect(breakers.states()).toEqual([]);
    expect(completed).toBe(true);
    await ctx.clock.runAll();
  });

  it('cancels calls still running when the application shuts down, and clears their timers', async () => {
    const ctx = await createToolApp([FlakyTools]);
    const tools = ctx.moduleRef.get(FlakyTools);
    tools.steps = ['hang'];
    const inFlight = ctx.executor.execute({ id: 'late', name: 'once', arguments: {} });
    await ctx.clock.advanceBy(1_000);
    expect(ctx.clock.pendingTimers).toBe(1);
    const signal = tools.of('once')[0]?.signal;

    await ctx.close();
    await expect(inFlight).resolves.toMatchObject({ success: false, errorType: 'cancelled' });
    expect(signal?.aborted).toBe(true);
    expect(ctx.clock.pendingTimers).toBe(0);
    await expect(ctx.executor.execute({ id: 'after', name: 'once' })).resolves.toMatchObject({
      errorType: 'cancelled',
    });
  });
});

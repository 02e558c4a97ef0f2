import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ToolFailure } from '@toolshield/core';
import { createToolApp } from '../fixtures/create-app.js';
import { FlakyTools } from './fixtures/flaky.tools.js';

describe('bulkhead through ToolExecutor', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: FlakyTools;
  const call = (id: string, options = {}) => ctx.executor.execute({ id, name: 'narrow', arguments: {} }, options);

  beforeEach(async () => {
    ctx = await createToolApp([FlakyTools]);
    tools = ctx.moduleRef.get(FlakyTools);
  });
  afterEach(async () => {
    await ctx.close();
    expect(ctx.clock.pendingTimers).toBe(0);
  });

  it('runs maxConcurrent calls, queues maxQueue, and fails the rest at once with bulkhead_full', async () => {
    tools.steps = [{ slowMs: 100 }, { slowMs: 100 }, 'ok'];
    const running = call('a');
    const queued = call('b');
    const rejected = (await call('c')) as ToolFailure;
    expect(rejected).toMatchObject({
      errorType: 'bulkhead_full',
      recoverable: true,
      retryCount: 0,
      metadata: expect.objectContaining({ maxConcurrent: 1, maxQueue: 1 }),
    });
    expect(tools.of('narrow')).toHaveLength(1);
    await ctx.clock.advanceBy(100);
    expect(await running).toMatchObject({ success: true, output: { slow: true } });
    expect(tools.of('narrow').map((invocation) => invocation.at)).toEqual([0, 100]);
    await ctx.clock.advanceBy(100);
    expect(await queued).toMatchObject({ success: true, metadata: { durationMs: 200 } });
  });

  it('lets a queued call leave the queue when its caller aborts', async () => {
    tools.steps = [{ slowMs: 100 }, 'ok'];
    const running = call('a');
    const controller = new AbortController();
    const queued = call('b', { signal: controller.signal });
    await ctx.clock.advanceBy(10);
    controller.abort();
    expect(await queued).toMatchObject({ errorType: 'cancelled' });
    const next = call('c');
    await ctx.clock.advanceBy(90);
    expect(await running).toMatchObject({ success: true });
    expect(await next).toMatchObject({ success: true });
    expect(tools.of('narrow').map((invocation) => invocation.call.callId)).toEqual(['a', 'c']);
  });
});

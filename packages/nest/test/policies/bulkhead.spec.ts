import { describe, expect, it } from '@jest/globals';
import type { ToolFailure } from '@toolshield/core';
import { useFlakyApp } from './fixtures/flaky-app.js';

describe('bulkhead through ToolExecutor', () => {
  const app = useFlakyApp();
  const call = (id: string, options = {}) =>
    app.ctx.executor.execute({ id, name: 'narrow', arguments: {} }, options);

  it('runs maxConcurrent calls, queues maxQueue, and fails the rest at once with bulkhead_full', async () => {
    app.tools.steps = [{ slowMs: 100 }, { slowMs: 100 }, 'ok'];
    const running = call('a');
    const queued = call('b');
    const rejected = (await call('c')) as ToolFailure;
    expect(rejected).toMatchObject({
      errorType: 'bulkhead_full',
      recoverable: true,
      retryCount: 0,
      metadata: expect.objectContaining({ maxConcurrent: 1, maxQueue: 1 }),
    });
    expect(app.tools.of('narrow')).toHaveLength(1);
    await app.ctx.clock.advanceBy(100);
    expect(await running).toMatchObject({ success: true, output: { slow: true } });
    expect(app.tools.of('narrow').map((invocation) => invocation.at)).toEqual([0, 100]);
    await app.ctx.clock.advanceBy(100);
    expect(await queued).toMatchObject({ success: true, metadata: { durationMs: 200 } });
  });

  it('lets a queued call leave the queue when its caller aborts', async () => {
    app.tools.steps = [{ slowMs: 100 }, 'ok'];
    const running = call('a');
    const controller = new AbortController();
    const queued = call('b', { signal: controller.signal });
    await app.ctx.clock.advanceBy(10);
    controller.abort();
    expect(await queued).toMatchObject({ errorType: 'cancelled' });
    const next = call('c');
    await app.ctx.clock.advanceBy(90);
    expect(await running).toMatchObject({ success: true });
    expect(await next).toMatchObject({ success: true });
    expect(app.tools.of('narrow').map((invocation) => invocation.call.callId)).toEqual(['a', 'c']);
  });
});

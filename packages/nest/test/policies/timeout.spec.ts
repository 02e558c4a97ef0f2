import { describe, expect, it } from '@jest/globals';
import { ToolTimeoutError, type ToolFailure, type ToolResult } from '@toolshield/core';
import { getEventListeners } from 'node:events';
import { settle } from './fixtures/drive.js';
import { useFlakyApp } from './fixtures/flaky-app.js';

describe('timeouts and cancellation through ToolExecutor', () => {
  const app = useFlakyApp();
  const start = (name: string, options = {}) =>
    app.ctx.executor.execute({ id: `call_${name}`, name, arguments: {} }, options);
  const terminal = () =>
    app.events.filter((event) => event.type === 'call.succeeded' || event.type === 'call.failed');

  it('ends a tool that never settles after its 50 ms timeout, with its signal aborted', async () => {
    app.tools.steps = ['hang'];
    const pending = start('quick');
    await app.ctx.clock.advanceBy(49);
    expect(app.tools.of('quick')[0]?.signal.aborted).toBe(false);
    await app.ctx.clock.advanceBy(1);
    const outcome = (await pending) as ToolFailure;
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'timeout',
      // Not declared idempotent: the request may have left, so it may have taken effect.
      recoverable: false,
      effect: 'unknown',
      retryCount: 0,
    });
    expect(outcome.metadata.durationMs).toBe(50);
    const signal = app.tools.of('quick')[0]?.signal;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(ToolTimeoutError);
    expect(app.ctx.clock.pendingTimers).toBe(0);
  });

  it('discards a result that arrives after the timeout: one outcome, one terminal event', async () => {
    app.tools.steps = [{ slowMs: 100 }];
    const pending = start('quick');
    await app.ctx.clock.advanceBy(50);
    expect(await pending).toMatchObject({ errorType: 'timeout' });
    await app.ctx.clock.advanceBy(100);
    expect(terminal()).toHaveLength(1);
    expect(terminal()[0]).toMatchObject({ type: 'call.failed' });
  });

  it('retries a timed-out attempt of an idempotent tool with a fresh signal; the late result never surfaces', async () => {
    app.tools.steps = [{ slowMs: 100 }, 'ok'];
    const outcome = (await settle(
      app.ctx.clock,
      start('idempotent', { timeoutMs: 50 }),
    )) as ToolResult;
    expect(outcome).toMatchObject({
      success: true,
      output: { attempt: 2 },
      metadata: { attempts: 2 },
    });
    const [first, second] = app.tools.of('idempotent').map((invocation) => invocation.signal);
    expect(first?.aborted).toBe(true);
    expect(second).not.toBe(first);
    expect(second?.aborted).toBe(false);
    await app.ctx.clock.runAll();
    expect(terminal()).toHaveLength(1);
  });

  it('takes the per-attempt limit from the call when given', async () => {
    app.tools.steps = ['hang'];
    const pending = start('once', { timeoutMs: 20 });
    await app.ctx.clock.advanceBy(20);
    expect(await pending).toMatchObject({ errorType: 'timeout', metadata: { durationMs: 20 } });
  });

  it('ends the call as cancelled when the caller aborts, aborting the tool signal and retrying nothing', async () => {
    app.tools.steps = ['hang', 'ok'];
    const controller = new AbortController();
    const pending = start('idempotent', { signal: controller.signal });
    await app.ctx.clock.advanceBy(10);
    controller.abort(new Error('user pressed stop'));
    const outcome = (await pending) as ToolFailure;
    expect(outcome).toMatchObject({ errorType: 'cancelled', recoverable: false, retryCount: 0 });
    expect(app.tools.of('idempotent')).toHaveLength(1);
    expect(app.tools.of('idempotent')[0]?.signal.aborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(app.ctx.clock.pendingTimers).toBe(0);
  });

  it('stops waiting for a retry when the caller aborts during the backoff', async () => {
    app.tools.steps = ['econnreset', 'ok'];
    const controller = new AbortController();
    const pending = start('idempotent', { signal: controller.signal });
    await app.ctx.clock.advanceBy(0);
    expect(app.events.some((event) => event.type === 'retry.scheduled')).toBe(true);
    controller.abort();
    expect(await pending).toMatchObject({ errorType: 'cancelled', retryCount: 0 });
    expect(app.tools.of('idempotent')).toHaveLength(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(app.ctx.clock.pendingTimers).toBe(0);
  });

  it('does not start a call whose signal is already aborted', async () => {
    expect(await start('once', { signal: AbortSignal.abort() })).toMatchObject({
      errorType: 'cancelled',
    });
    expect(app.tools.invocations).toHaveLength(0);
    expect(terminal()).toHaveLength(1);
  });

  it('leaves no listener on the caller signal after a successful call', async () => {
    const controller = new AbortController();
    expect(
      await settle(app.ctx.clock, start('idempotent', { signal: controller.signal })),
    ).toMatchObject({ success: true });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

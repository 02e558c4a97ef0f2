import { describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { gaps, settle } from './fixtures/drive.js';
import { useFlakyApp } from './fixtures/flaky-app.js';

describe('retry policy through ToolExecutor', () => {
  const app = useFlakyApp();
  const run = (name: string, options = {}) =>
    settle(
      app.ctx.clock,
      app.ctx.executor.execute({ id: `call_${name}`, name, arguments: {} }, options),
    );

  it('ECONNRESET twice then success: succeeds after 2 retries, with truthful counts and events', async () => {
    app.tools.steps = ['econnreset', 'econnreset', 'ok'];
    const outcome = (await run('idempotent')) as ToolResult;
    expect(outcome).toMatchObject({ success: true, output: { tool: 'idempotent', attempt: 3 } });
    expect(outcome.metadata.attempts).toBe(3);
    expect(app.tools.of('idempotent').map((invocation) => invocation.attempt)).toEqual([1, 2, 3]);
    expect(app.events.map((event) => event.type)).toEqual([
      'call.started',
      'attempt.failed',
      'retry.scheduled',
      'attempt.failed',
      'retry.scheduled',
      'call.succeeded',
    ]);
    const failed = app.events.filter((event) => event.type === 'attempt.failed');
    expect(failed).toEqual([
      expect.objectContaining({ callId: 'call_idempotent', attempt: 1, errorType: 'network' }),
      expect.objectContaining({ callId: 'call_idempotent', attempt: 2, errorType: 'network' }),
    ]);
    const scheduled = app.events.filter((event) => event.type === 'retry.scheduled');
    expect(scheduled.map((event) => event.attempt)).toEqual([2, 3]);
    const waited = gaps(app.tools.of('idempotent').map((invocation) => invocation.at));
    for (const [index, event] of scheduled.entries()) {
      expect(event.delayMs).toBeGreaterThanOrEqual(0);
      expect(event.delayMs).toBeLessThanOrEqual(10_000);
      expect(waited[index]).toBeCloseTo(event.delayMs, 6);
    }
  });

  it('fails with retryCount === retryMax when every attempt fails, never more attempts', async () => {
    app.tools.steps = ['unavailable', 'unavailable', 'unavailable', 'unavailable'];
    const outcome = (await run('idempotent')) as ToolFailure;
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'upstream_unavailable',
      retryCount: 2,
      retryMax: 2,
    });
    expect(outcome.metadata.attempts).toBe(3);
    expect(app.tools.of('idempotent')).toHaveLength(3);
    expect(app.tools.steps).toHaveLength(1);
  });

  it('waits for Retry-After: 2 before the next attempt, in clock time', async () => {
    app.tools.steps = [{ retryAfter: '2' }, 'ok'];
    const outcome = await run('retryable');
    expect(outcome.success).toBe(true);
    const [waited] = gaps(app.tools.of('retryable').map((invocation) => invocation.at));
    expect(waited).toBeGreaterThanOrEqual(2_000);
    expect(app.events.find((event) => event.type === 'retry.scheduled')).toMatchObject({
      delayMs: 2_000,
      errorType: 'rate_limited',
    });
  });

  it('reads a Retry-After HTTP date against the module clock, not the wall clock', async () => {
    await app.ctx.clock.advanceTo(Date.UTC(2026, 10, 22, 12, 0, 0));
    app.tools.steps = [{ retryAfter: 'Sun, 22 Nov 2026 12:00:03 GMT' }, 'ok'];
    const outcome = await run('retryable');
    expect(outcome.success).toBe(true);
    expect(gaps(app.tools.of('retryable').map((invocation) => invocation.at))).toEqual([3_000]);
  });

  it('fails now with rate_limited and retryAfterMs when Retry-After exceeds the cap', async () => {
    app.tools.steps = [{ retryAfter: '6' }, 'ok'];
    const outcome = (await run('retryable')) as ToolFailure;
    expect(outcome).toMatchObject({
      errorType: 'rate_limited',
      retryAfterMs: 6_000,
      retryCount: 0,
      retryMax: 3,
    });
    expect(app.tools.of('retryable')).toHaveLength(1);
  });

  it('fails now with rate_limited and retryAfterMs when Retry-After exceeds the remaining budget', async () => {
    app.tools.steps = [{ retryAfter: '4' }, { retryAfter: '4' }, 'ok'];
    const outcome = (await run('retryable', { retry: { budgetMs: 5_000 } })) as ToolFailure;
    expect(outcome).toMatchObject({
      errorType: 'rate_limited',
      retryAfterMs: 4_000,
      retryCount: 1,
      retryMax: 3,
    });
    expect(app.tools.of('retryable').map((invocation) => invocation.at)).toEqual([0, 4_000]);
  });

  it('never retries a tool that is neither idempotent nor @Retryable', async () => {
    app.tools.steps = ['econnreset', 'ok'];
    const outcome = (await run('once')) as ToolFailure;
    expect(outcome).toMatchObject({
      errorType: 'network',
      // Not idempotent, and the connection dropped after sending: it may have taken effect.
      recoverable: false,
      effect: 'unknown',
      retryCount: 0,
      retryMax: 0,
    });
    expect(app.tools.of('once')).toHaveLength(1);
    expect(app.events.some((event) => event.type === 'retry.scheduled')).toBe(false);
  });

  it('never retries invalid_input, even on a retried tool', async () => {
    app.tools.steps = ['invalid', 'ok'];
    const outcome = (await run('retryable')) as ToolFailure;
    expect(outcome).toMatchObject({ errorType: 'invalid_input', retryCount: 0, retryMax: 3 });
    expect(app.tools.of('retryable')).toHaveLength(1);
  });

  it('lets the caller switch retries off or change them for one call, but not turn them on', async () => {
    app.tools.steps = ['econnreset', 'ok'];
    expect(await run('idempotent', { retry: false })).toMatchObject({
      errorType: 'network',
      retryCount: 0,
      retryMax: 0,
    });
    app.tools.steps = ['econnreset', 'econnreset', 'ok'];
    expect(await run('idempotent', { retry: { maxRetries: 1 } })).toMatchObject({
      retryCount: 1,
      retryMax: 1,
    });
    app.tools.steps = ['econnreset', 'ok'];
    expect(await run('once', { retry: { maxRetries: 5 } })).toMatchObject({
      retryCount: 0,
      retryMax: 0,
    });
  });
});

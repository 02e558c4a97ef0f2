import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { ToolTimeoutError, type ToolCallContext } from '@toolshield/core';
import { Tool, ToolCall, ToolCircuitBreakers } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/** An upstream whose every call waits until the test answers it; it ignores its signal. */
@Injectable()
class SlowUpstream {
  readonly pending: ((value: unknown) => void)[] = [];

  @Tool({
    name: 'probe',
    description: 'Calls a slow upstream.',
    timeoutMs: 5_000,
    breaker: { volumeThreshold: 1, resetTimeoutMs: 1_000, halfOpenMaxCalls: 1 },
  })
  probe(@ToolCall() _call: ToolCallContext) {
    return new Promise((resolve) => this.pending.push(resolve));
  }
}

describe('half-open probes whose callers abort, through ToolExecutor', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let upstream: SlowUpstream;
  let breakers: ToolCircuitBreakers;
  const call = (signal?: AbortSignal) =>
    ctx.executor.execute({ id: 'c', name: 'probe', arguments: {} }, { signal });

  beforeEach(async () => {
    ctx = await createToolApp([SlowUpstream]);
    upstream = ctx.moduleRef.get(SlowUpstream);
    breakers = ctx.moduleRef.get(ToolCircuitBreakers);
    await breakers.open('probe');
    await ctx.clock.advanceBy(1_000);
    expect(breakers.find('probe')?.state).toBe('half_open');
  });
  afterEach(async () => {
    await ctx.close();
    expect(ctx.clock.pendingTimers).toBe(0);
  });

  it('keeps the trial slot until the aborted probe has settled, then closes on the next success', async () => {
    const caller = new AbortController();
    const first = call(caller.signal);
    await ctx.clock.advanceBy(0);
    caller.abort();
    expect(await first).toMatchObject({ errorType: 'cancelled' });

    expect(await call()).toMatchObject({ errorType: 'circuit_open' });
    expect(upstream.pending).toHaveLength(1);
    expect(breakers.find('probe')?.state).toBe('half_open');

    upstream.pending[0]?.({ late: true });
    await ctx.clock.advanceBy(0);
    const second = call();
    await ctx.clock.advanceBy(0);
    expect(upstream.pending).toHaveLength(2);
    upstream.pending[1]?.({ ok: true });
    expect(await second).toMatchObject({ success: true });
    expect(breakers.find('probe')?.state).toBe('closed');
  });

  it('frees the slot at the aborted attempt deadline when the tool never settles', async () => {
    const caller = new AbortController();
    const first = call(caller.signal);
    await ctx.clock.advanceBy(10);
    caller.abort();
    await first;
    await ctx.clock.advanceBy(4_989);
    expect(await call()).toMatchObject({ errorType: 'circuit_open' });
    await ctx.clock.advanceBy(1);
    const second = call();
    await ctx.clock.advanceBy(0);
    upstream.pending[1]?.({ ok: true });
    expect(await second).toMatchObject({ success: true });
  });

  it('never counts the caller abort as a failure, whatever its reason', async () => {
    const caller = new AbortController();
    const first = call(caller.signal);
    await ctx.clock.advanceBy(0);
    caller.abort(new ToolTimeoutError('The agent step ran out of time'));
    expect(await first).toMatchObject({ errorType: 'timeout' });
    expect(breakers.find('probe')?.state).toBe('half_open');
  });
});

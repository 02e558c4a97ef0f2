import { beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { ToolTimeoutError, type ToolCallContext } from '@toolshield/core';
import { Tool, ToolCall, ToolCircuitBreakers } from '../../src/index.js';
import { useToolApp } from './fixtures/tool-app.js';

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
  const app = useToolApp(SlowUpstream);
  const breakers = () => app.ctx.moduleRef.get(ToolCircuitBreakers);
  const call = (signal?: AbortSignal) =>
    app.ctx.executor.execute({ id: 'c', name: 'probe', arguments: {} }, { signal });
  /** A probe whose caller aborts (with `reason`) after `afterMs`; resolves to its outcome. */
  const abortedProbe = async (afterMs: number, reason?: unknown) => {
    const caller = new AbortController();
    const outcome = call(caller.signal);
    await app.ctx.clock.advanceBy(afterMs);
    caller.abort(reason);
    return outcome;
  };

  beforeEach(async () => {
    await breakers().open('probe');
    await app.ctx.clock.advanceBy(1_000);
    expect(breakers().find('probe')?.state).toBe('half_open');
  });

  it('keeps the trial slot until the aborted probe has settled, then closes on the next success', async () => {
    expect(await abortedProbe(0)).toMatchObject({ errorType: 'cancelled' });

    expect(await call()).toMatchObject({ errorType: 'circuit_open' });
    expect(app.tools.pending).toHaveLength(1);
    expect(breakers().find('probe')?.state).toBe('half_open');

    app.tools.pending[0]?.({ late: true });
    await app.ctx.clock.advanceBy(0);
    const second = call();
    await app.ctx.clock.advanceBy(0);
    expect(app.tools.pending).toHaveLength(2);
    app.tools.pending[1]?.({ ok: true });
    expect(await second).toMatchObject({ success: true });
    expect(breakers().find('probe')?.state).toBe('closed');
  });

  it('frees the slot at the aborted attempt deadline when the tool never settles', async () => {
    await abortedProbe(10);
    await app.ctx.clock.advanceBy(4_989);
    expect(await call()).toMatchObject({ errorType: 'circuit_open' });
    await app.ctx.clock.advanceBy(1);
    const second = call();
    await app.ctx.clock.advanceBy(0);
    app.tools.pending[1]?.({ ok: true });
    expect(await second).toMatchObject({ success: true });
  });

  it('never counts the caller abort as a failure, whatever its reason', async () => {
    const reason = new ToolTimeoutError('The agent step ran out of time');
    expect(await abortedProbe(0, reason)).toMatchObject({ errorType: 'timeout' });
    expect(breakers().find('probe')?.state).toBe('half_open');
  });
});

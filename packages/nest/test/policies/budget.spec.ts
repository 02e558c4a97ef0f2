import { describe, expect, it } from '@jest/globals';
import { Inject, Injectable } from '@nestjs/common';
import {
  ToolTimeoutError,
  type Clock,
  type ToolCallContext,
  type ToolFailure,
} from '@toolshield/core';
import { Retryable, Tool, ToolCall, TOOLSHIELD_CLOCK } from '../../src/index.js';
import { useToolApp } from './fixtures/tool-app.js';

/** Upstreams that never answer, each attempt recorded with its start time and signal. */
@Injectable()
class HangingUpstreams {
  readonly attempts: { readonly at: number; readonly signal: AbortSignal }[] = [];

  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  @Tool({
    idempotent: true,
    name: 'timed',
    description: 'Hangs; 1 s per attempt.',
    timeoutMs: 1_000,
    breaker: false,
  })
  @Retryable({ maxRetries: 5, budgetMs: 1_500, backoff: { baseMs: 100, jitter: 'none' } })
  timed(@ToolCall() call: ToolCallContext) {
    return this.hang(call);
  }

  @Tool({
    idempotent: true,
    name: 'untimed',
    description: 'Hangs; no per-attempt limit.',
    timeoutMs: false,
  })
  @Retryable({ maxRetries: 5, budgetMs: 1_500 })
  untimed(@ToolCall() call: ToolCallContext) {
    return this.hang(call);
  }

  @Tool({
    idempotent: true,
    name: 'default_backoff',
    description: 'Hangs.',
    timeoutMs: 1_000,
    breaker: false,
  })
  @Retryable({ maxRetries: 5, budgetMs: 1_500 })
  defaultBackoff(@ToolCall() call: ToolCallContext) {
    return this.hang(call);
  }

  private hang(call: ToolCallContext): Promise<never> {
    this.attempts.push({ at: this.clock.now(), signal: call.signal });
    return new Promise<never>(() => undefined);
  }
}

describe('budgetMs bounds the whole call (attempts and waits)', () => {
  const app = useToolApp(HangingUpstreams, { random: () => 0.5 });
  const start = (name: string, options = {}) =>
    app.ctx.executor.execute({ id: `call_${name}`, name, arguments: {} }, options);
  const types = () => app.events.map((event) => event.type);
  /** The outcome, or 'still running' when the call has not ended by now (the clock has moved). */
  const ended = <T>(pending: Promise<T>) =>
    Promise.race([
      pending,
      new Promise<string>((resolve) => setImmediate(resolve, 'still running')),
    ]);

  it('cuts the retry at the budget: @Tool({ idempotent: true, timeoutMs: 1000 }) @Retryable({ budgetMs: 1500 }) ends at 1.5 s', async () => {
    const pending = start('timed');
    await app.ctx.clock.advanceBy(1_499);
    expect(app.tools.attempts.map((attempt) => attempt.at)).toEqual([0, 1_100]);
    expect(app.tools.attempts[1]?.signal.aborted).toBe(false);
    await app.ctx.clock.advanceBy(1);
    const outcome = (await ended(pending)) as ToolFailure;
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'timeout',
      retryCount: 1,
      retryMax: 5,
      metadata: { attempts: 2, durationMs: 1_500, budgetMs: 1_500 },
    });
    expect(outcome.error).toMatch(/budget of 1500 ms/);
    expect(outcome.error).not.toMatch(/Timed out after/);
    const signal = app.tools.attempts[1]?.signal;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(ToolTimeoutError);
    expect(types()).toEqual([
      'call.started',
      'attempt.failed',
      'retry.scheduled',
      'attempt.failed',
      'call.failed',
    ]);
    const failed = app.events.filter((event) => event.type === 'attempt.failed');
    expect(failed.map((event) => [event.attempt, event.errorType])).toEqual([
      [1, 'timeout'],
      [2, 'timeout'],
    ]);
    expect(failed[0]?.message).toMatch(/Timed out after 1000 ms/);
    expect(failed[1]?.message).toMatch(/budget/);
    await app.ctx.clock.advanceBy(10_000);
    expect(app.tools.attempts).toHaveLength(2);
    expect(app.events).toHaveLength(5);
  });

  it('bounds a call without a per-attempt limit (timeoutMs: false) by the budget alone', async () => {
    const pending = start('untimed');
    await app.ctx.clock.advanceBy(1_500);
    const outcome = (await ended(pending)) as ToolFailure;
    expect(outcome).toMatchObject({
      errorType: 'timeout',
      retryCount: 0,
      metadata: { attempts: 1, durationMs: 1_500, budgetMs: 1_500 },
    });
    expect(outcome.error).toMatch(/budget/);
    expect(app.tools.attempts[0]?.signal.aborted).toBe(true);
    expect(app.tools.attempts).toHaveLength(1);
  });

  it('bounds a per-call timeoutMs: false the same way', async () => {
    const pending = start('timed', { timeoutMs: false });
    await app.ctx.clock.advanceBy(1_500);
    expect(await ended(pending)).toMatchObject({
      errorType: 'timeout',
      metadata: { durationMs: 1_500 },
    });
  });

  it('takes a per-call budget into account', async () => {
    const pending = start('untimed', { retry: { budgetMs: 300 } });
    await app.ctx.clock.advanceBy(300);
    expect(await ended(pending)).toMatchObject({
      errorType: 'timeout',
      metadata: { budgetMs: 300 },
    });
  });

  it('with the default backoff the first wait does not fit the budget: one attempt, cut by its own timeout', async () => {
    const pending = start('default_backoff');
    await app.ctx.clock.advanceBy(1_000);
    const outcome = (await ended(pending)) as ToolFailure;
    expect(outcome).toMatchObject({ errorType: 'timeout', retryCount: 0 });
    expect(outcome.error).toMatch(/Timed out after 1000 ms/);
  });
});

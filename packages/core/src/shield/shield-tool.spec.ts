import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../clock/virtual-clock.js';
import { NetworkError } from '../errors/network.error.js';
import type { ToolCallContext } from '../results/tool-call.js';
import { shieldTool } from './shield-tool.js';

const econnreset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const hang = () => new Promise<never>(() => undefined);
const noJitter = { backoff: { jitter: 'none' as const, baseMs: 100 } };

describe('shieldTool', () => {
  it('retries an idempotent tool that fails twice and reports the result truthfully', async () => {
    const clock = new VirtualClock();
    const attempts: number[] = [];
    const weather = shieldTool(
      async (args: { city: string }, call: ToolCallContext) => {
        attempts.push(call.attempt);
        if (call.attempt <= 2) throw econnreset();
        return { city: args.city, tempC: 21 };
      },
      { name: 'get_weather', idempotent: true, retry: noJitter, clock },
    );
    const outcome = weather({ city: 'Paris' }, { callId: 'call_1' });
    await clock.runAll();
    await expect(outcome).resolves.toEqual({
      success: true,
      tool: 'get_weather',
      callId: 'call_1',
      output: { city: 'Paris', tempC: 21 },
      metadata: { attempts: 3, durationMs: 300 },
    });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('does not retry a tool that is not idempotent, and classifies what it threw', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const send = shieldTool(
      () => {
        calls++;
        throw econnreset();
      },
      { name: 'send_email', clock },
    );
    const outcome = await send({}, { callId: 'call_2' });
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({
      success: false,
      tool: 'send_email',
      callId: 'call_2',
      errorType: 'network',
      // Not idempotent, and the connection dropped after sending: the email may have gone.
      recoverable: false,
      effect: 'unknown',
      retryCount: 0,
      retryMax: 0,
      metadata: { idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}:call_2$/) },
    });
  });

  it('refuses retry options on a tool not declared idempotent when shielding it, in one line naming the tool', () => {
    const refusals = [
      { name: 'save', retry: { maxRetries: 1 } },
      { name: 'save', idempotent: false, retry: {} },
    ].map((options) => {
      try {
        shieldTool(() => 'saved', options);
        return undefined;
      } catch (error) {
        return error;
      }
    });
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(TypeError);
      expect((refusal as Error).message).toBe(
        'Invalid shieldTool options: shieldTool(save).retry must be on a tool declared idempotent (a retried call runs more than once: add idempotent: true, or remove retry), got an object.',
      );
    }
  });

  it('tunes the retries of an idempotent tool with retry, and never retries with retry: false', async () => {
    const clock = new VirtualClock();
    const flaky = (calls: number[]) => () => {
      calls.push(1);
      throw new NetworkError('reset');
    };
    const tuned: number[] = [];
    const never: number[] = [];
    const sideEffects: number[] = [];
    const a = shieldTool(flaky(tuned), {
      name: 'a',
      idempotent: true,
      retry: { maxRetries: 1, ...noJitter },
      clock,
    });
    const b = shieldTool(flaky(never), { name: 'b', idempotent: true, retry: false, clock });
    const c = shieldTool(flaky(sideEffects), { name: 'c', retry: false, clock });
    const outcomes = Promise.all([a({}), b({}), c({})]);
    await clock.runAll();
    const [first, second, third] = await outcomes;
    expect([tuned.length, never.length, sideEffects.length]).toEqual([2, 1, 1]);
    expect(first).toMatchObject({ success: false, retryCount: 1, retryMax: 1 });
    expect(second).toMatchObject({ success: false, retryCount: 0, retryMax: 0 });
    expect(third).toMatchObject({ success: false, retryCount: 0, retryMax: 0 });
  });

  it('times a hanging attempt out and aborts its signal', async () => {
    const clock = new VirtualClock();
    let signal: AbortSignal | undefined;
    const slow = shieldTool(
      (_args: unknown, call: ToolCallContext) => {
        signal = call.signal;
        return hang();
      },
      { name: 'slow', timeoutMs: 50, clock },
    );
    const outcome = slow({});
    await clock.advanceBy(50);
    await expect(outcome).resolves.toMatchObject({
      success: false,
      errorType: 'timeout',
      metadata: { timeoutMs: 50, durationMs: 50 },
    });
    expect(signal?.aborted).toBe(true);
  });

  it("ends the call cancelled when the caller's signal aborts, aborting the attempt", async () => {
    const clock = new VirtualClock();
    let attemptSignal: AbortSignal | undefined;
    const slow = shieldTool(
      (_args: unknown, call: ToolCallContext) => {
        attemptSignal = call.signal;
        return hang();
      },
      { name: 'slow', clock },
    );
    const caller = new AbortController();
    const outcome = slow({}, { signal: caller.signal });
    caller.abort();
    await expect(outcome).resolves.toMatchObject({ success: false, errorType: 'cancelled' });
    expect(attemptSignal?.aborted).toBe(true);
  });

  it('fails fast once its breaker is open, without calling the tool', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const down = shieldTool(
      () => {
        calls++;
        return Promise.reject(new NetworkError('refused'));
      },
      { name: 'down', breaker: { volumeThreshold: 2 }, clock },
    );
    await down({});
    await down({});
    const third = await down({});
    expect(calls).toBe(2);
    expect(third).toMatchObject({ success: false, errorType: 'circuit_open' });
  });

  it('hands the call id, metadata and tool name to the tool, and generates a call id when missing', async () => {
    const seen: ToolCallContext[] = [];
    const echo = shieldTool((_args: unknown, call: ToolCallContext) => seen.push(call), {
      name: 'echo',
      breaker: false,
      timeoutMs: false,
    });
    await echo({}, { callId: 'call_3', metadata: { tenant: 't1' } });
    const generated = await echo({});
    expect(seen[0]).toMatchObject({
      callId: 'call_3',
      toolName: 'echo',
      attempt: 1,
      metadata: { tenant: 't1' },
    });
    expect(generated.callId).toMatch(/^call_[0-9a-f-]{36}$/);
  });

  it('redacts secrets from the failure the model reads', async () => {
    const leaky = shieldTool(
      () => {
        throw new Error('upstream said: invalid key sk-abcdefghijklmnopqrstuvwxyz0123456789');
      },
      { name: 'leaky', breaker: false },
    );
    const outcome = await leaky({});
    expect(outcome.success).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123456789');
  });
});

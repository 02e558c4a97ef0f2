import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { sleep } from '../../clock/sleep.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { CircuitOpenError } from '../../errors/circuit-open.error.js';
import { InvalidInputError } from '../../errors/invalid-input.error.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import type { BreakerStateChangedEvent, CircuitState } from '../../events/tool-event.js';
import type { CircuitBreakerOptions } from './circuit-breaker-options.js';
import { ToolCircuitBreaker } from './circuit-breaker.js';

function setup(options: CircuitBreakerOptions = {}) {
  const clock = new VirtualClock({ startMs: 1_000_000 });
  const events: BreakerStateChangedEvent[] = [];
  const breaker = new ToolCircuitBreaker(
    { volumeThreshold: 4, errorThresholdPercentage: 50, resetTimeoutMs: 10_000, ...options },
    { clock, tool: 'weather', onStateChange: (event) => events.push(event) },
  );
  const transitions = () => events.map((event) => `${event.from}->${event.to}`);
  return { clock, breaker, events, transitions };
}

const down = async (): Promise<never> => {
  throw new UpstreamUnavailableError('503 Service Unavailable');
};
const up = async () => 'ok';
const swallow = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    () => undefined,
  );

describe('ToolCircuitBreaker', () => {
  it('dead upstream: opens after the threshold, fails fast without calling the tool, a half-open probe closes it', async () => {
    const { clock, breaker, events, transitions } = setup();
    for (let i = 0; i < 4; i++)
      await expect(breaker.execute(down)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(breaker.state).toBe('open');
    expect(events[0]).toEqual({
      type: 'breaker.state_changed',
      at: 1_000_000,
      tool: 'weather',
      key: 'weather',
      from: 'closed',
      to: 'open',
    });

    await clock.advanceBy(4_000);
    const tool = jest.fn(up);
    const fastFail = breaker.execute(tool);
    await expect(fastFail).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(fastFail).rejects.toMatchObject({ retryAfterMs: 6_000, toolName: 'weather' });
    expect(tool).not.toHaveBeenCalled();

    await clock.advanceBy(6_000);
    expect(breaker.state).toBe('half_open');
    await expect(breaker.execute(tool)).resolves.toBe('ok');
    expect(tool).toHaveBeenCalledTimes(1);
    expect(breaker.state).toBe('closed');
    expect(transitions()).toEqual(['closed->open', 'open->half_open', 'half_open->closed']);
    expect(breaker.stats()).toEqual({ successes: 0, failures: 0 });
  });

  it('does not open below the minimum volume or at the threshold itself', async () => {
    const { breaker } = setup();
    for (let i = 0; i < 3; i++) await swallow(breaker.execute(down));
    expect(breaker.state).toBe('closed');
    const mixed = setup();
    for (const fn of [down, up, down, up]) await swallow(mixed.breaker.execute(fn));
    expect(mixed.breaker.state).toBe('closed');
    await swallow(mixed.breaker.execute(down));
    expect(mixed.breaker.state).toBe('open');
  });

  it('counts neutral errors neither as failure nor as success', async () => {
    const { breaker } = setup();
    const invalid = async (): Promise<never> => {
      throw new InvalidInputError('city is required');
    };
    for (let i = 0; i < 10; i++) await swallow(breaker.execute(invalid));
    expect(breaker.stats()).toEqual({ successes: 0, failures: 0 });
    for (const fn of [down, invalid, down, invalid, invalid, down])
      await swallow(breaker.execute(fn));
    expect(breaker.stats()).toEqual({ successes: 0, failures: 3 });
    expect(breaker.state).toBe('closed');
    await swallow(breaker.execute(down));
    expect(breaker.state).toBe('open');
  });

  it('counts a success slower than slowCallDurationMs as a failure but still returns it', async () => {
    const { clock, breaker } = setup({ slowCallDurationMs: 100, volumeThreshold: 1 });
    const slow = breaker.execute(async () => {
      await sleep(clock, 150);
      return 'late but fine';
    });
    await clock.advanceBy(150);
    await expect(slow).resolves.toBe('late but fine');
    expect(breaker.state).toBe('open');
  });

  it('forgets failures that left the rolling window', async () => {
    const { clock, breaker } = setup({ rollingWindowMs: 10_000, rollingBuckets: 10 });
    for (let i = 0; i < 3; i++) await swallow(breaker.execute(down));
    expect(breaker.stats().failures).toBe(3);
    await clock.advanceBy(5_000);
    expect(breaker.stats().failures).toBe(3);
    await clock.advanceBy(5_000);
    expect(breaker.stats().failures).toBe(0);
    await swallow(breaker.execute(down));
    expect(breaker.state).toBe('closed');
  });

  it('lets halfOpenMaxCalls trial calls through and closes only when all succeed', async () => {
    const { clock, breaker, transitions } = setup({ halfOpenMaxCalls: 3 });
    breaker.open();
    await clock.advanceBy(10_000);
    const trials = [1, 2, 3].map(() => breaker.execute(() => sleep(clock, 10).then(up)));
    await expect(breaker.execute(up)).rejects.toBeInstanceOf(CircuitOpenError);
    await clock.advanceBy(10);
    await expect(Promise.all(trials)).resolves.toEqual(['ok', 'ok', 'ok']);
    expect(breaker.state).toBe('closed');

    breaker.open();
    await clock.advanceBy(10_000);
    await breaker.execute(up);
    await swallow(breaker.execute(down));
    expect(breaker.state).toBe('open');
    expect(transitions()).toEqual([
      'closed->open',
      'open->half_open',
      'half_open->closed',
      'closed->open',
      'open->half_open',
      'half_open->open',
    ]);
  });

  it('frees the trial slot of a neutral half-open outcome', async () => {
    const { clock, breaker } = setup();
    breaker.open();
    await clock.advanceBy(10_000);
    await swallow(breaker.execute(async () => Promise.reject(new InvalidInputError('bad'))));
    expect(breaker.state).toBe('half_open');
    await breaker.execute(up);
    expect(breaker.state).toBe('closed');
  });

  it('isolate() holds it open until close()', async () => {
    const { clock, breaker, transitions } = setup();
    breaker.isolate();
    breaker.open();
    await clock.advanceBy(1_000_000);
    const rejected = breaker.execute(up);
    await expect(rejected).rejects.toBeInstanceOf(CircuitOpenError);
    await expect(rejected).rejects.toMatchObject({
      retryAfterMs: undefined,
      metadata: { state: 'isolated' },
    });
    breaker.close();
    await expect(breaker.execute(up)).resolves.toBe('ok');
    expect(transitions()).toEqual(['closed->isolated', 'isolated->closed']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('ignores outcomes of calls admitted before the last transition', async () => {
    const { clock, breaker } = setup({ volumeThreshold: 1 });
    const slowFailure = swallow(breaker.execute(() => sleep(clock, 100).then(down)));
    breaker.open();
    breaker.close();
    await clock.advanceBy(100);
    await slowFailure;
    expect(breaker.state).toBe('closed');
    expect(breaker.stats()).toEqual({ successes: 0, failures: 0 });
  });

  it('exports and hydrates its state', async () => {
    const { clock, breaker } = setup();
    for (const fn of [up, down, up]) await swallow(breaker.execute(fn));
    expect(breaker.snapshot()).toEqual({
      state: 'closed',
      window: { successes: 2, failures: 1 },
      savedAt: 1_000_000,
    });

    const copy = setup();
    copy.breaker.hydrate(breaker.snapshot());
    expect(copy.breaker.stats()).toEqual({ successes: 2, failures: 1 });

    breaker.open();
    await clock.advanceBy(3_000);
    const open = breaker.snapshot();
    expect(open).toEqual({ state: 'open', openedAt: 1_000_000, savedAt: 1_003_000 });
    const restored = setup();
    await restored.clock.advanceTo(1_004_000);
    restored.breaker.hydrate(open);
    await expect(restored.breaker.execute(up)).rejects.toMatchObject({ retryAfterMs: 6_000 });
    await restored.clock.advanceBy(6_000);
    expect(restored.breaker.state).toBe('half_open');

    const late = setup();
    await late.clock.advanceTo(1_020_000);
    late.breaker.hydrate(open);
    expect(late.breaker.state).toBe('half_open');
    expect(late.transitions()).toEqual(['closed->open', 'open->half_open']);
    late.breaker.hydrate({ state: 'isolated', savedAt: 0 });
    expect(late.breaker.state).toBe('isolated');
  });

  it('dispose() cancels its timer and detaches from the rotation; later calls fail fast', async () => {
    const { clock, breaker } = setup();
    breaker.open();
    expect(clock.pendingTimers).toBe(1);
    breaker.dispose();
    expect(clock.pendingTimers).toBe(0);
    await expect(breaker.execute(up)).rejects.toBeInstanceOf(CircuitOpenError);
  });

  it('keeps a legal state machine under random outcomes, manual controls and clock advances', async () => {
    const legal = new Set([
      'closed->open',
      'closed->isolated',
      'open->half_open',
      'open->closed',
      'open->isolated',
      'half_open->closed',
      'half_open->open',
      'half_open->isolated',
      'isolated->closed',
    ]);
    const op = fc.oneof(
      fc.constantFrom('success', 'failure', 'neutral', 'slow', 'open', 'close', 'isolate'),
      fc.integer({ min: 1, max: 15_000 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 60 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        async (ops, halfOpenMaxCalls, volumeThreshold) => {
          const { clock, breaker, events } = setup({
            halfOpenMaxCalls,
            volumeThreshold,
            slowCallDurationMs: 50,
          });
          let openedAt = 0;
          for (const step of ops) {
            const before: CircuitState = breaker.state;
            if (typeof step === 'number') await clock.advanceBy(step);
            else if (step === 'open') breaker.open();
            else if (step === 'close') breaker.close();
            else if (step === 'isolate') breaker.isolate();
            else {
              let invoked = false;
              const fn = async () => {
                invoked = true;
                if (step === 'failure') await down();
                if (step === 'neutral') throw new InvalidInputError('bad');
                if (step === 'slow') await sleep(clock, 60);
                return 'ok';
              };
              const run = swallow(breaker.execute(fn));
              if (step === 'slow') await clock.advanceBy(60);
              await run;
              if (before === 'open' || before === 'isolated') expect(invoked).toBe(false);
            }
            const last = events.at(-1);
            if (last?.to === 'open') openedAt = last.at;
            if (last?.to === 'half_open') expect(last.at - openedAt).toBeGreaterThanOrEqual(10_000);
          }
          let state: CircuitState = 'closed';
          for (const event of events) {
            expect(event.from).toBe(state);
            expect(legal.has(`${event.from}->${event.to}`)).toBe(true);
            state = event.to;
          }
          expect(breaker.state).toBe(state);
          breaker.dispose();
          expect(clock.pendingTimers).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ToolCircuitBreaker.rejection', () => {
  it('says how a call would be refused now, with one error per open period whose wait counts down', async () => {
    const clock = new VirtualClock();
    const breaker = new ToolCircuitBreaker({ resetTimeoutMs: 10_000 }, { tool: 'lookup', clock });
    expect(breaker.rejection()).toBeUndefined();

    breaker.open();
    const first = breaker.rejection();
    expect(first).toBeInstanceOf(CircuitOpenError);
    expect(first?.stack).toBe(
      'CircuitOpenError: The circuit breaker is open after repeated failures',
    );
    expect(first?.retryAfterMs).toBe(10_000);
    await clock.advanceBy(4_000);
    expect(breaker.rejection()).toBe(first);
    expect(first?.retryAfterMs).toBe(6_000);
    expect(first?.metadata).toEqual({ breakerKey: 'lookup', state: 'open' });

    await clock.advanceBy(6_000); // half-open: the trial slot is free
    expect(breaker.rejection()).toBeUndefined();
    const trial = breaker.execute(() => sleep(clock, 100));
    expect(breaker.rejection()?.message).toBe(
      'The circuit breaker is half-open and its trial calls are running',
    );
    await clock.advanceBy(100);
    await trial;
    expect(breaker.state).toBe('closed');
    expect(breaker.rejection()).toBeUndefined();
    breaker.dispose();
  });
});

describe('ToolCircuitBreaker counts', () => {
  it("match its opossum window's own sums over any run of calls and time (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.constant('ok'), fc.constant('fail'), fc.integer({ min: 1, max: 3_000 })),
          {
            maxLength: 60,
          },
        ),
        async (steps) => {
          const clock = new VirtualClock();
          const breaker = new ToolCircuitBreaker(
            { volumeThreshold: 1_000, errorThresholdPercentage: 99 },
            { tool: 'weather', clock },
          );
          const window = (
            breaker as unknown as { window: { stats: { successes: number; failures: number } } }
          ).window;
          for (const step of steps) {
            if (typeof step === 'number') await clock.advanceBy(step);
            else await swallow(breaker.execute(step === 'ok' ? up : down));
            const counts = breaker.stats(); // catches the shared rotation up first
            const { successes, failures } = window.stats;
            expect(counts).toEqual({ successes, failures });
          }
          breaker.dispose();
        },
      ),
      { numRuns: 100 },
    );
  });
});

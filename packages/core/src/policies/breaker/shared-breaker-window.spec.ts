import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { CircuitOpenError } from '../../errors/circuit-open.error.js';
import { InvalidInputError } from '../../errors/invalid-input.error.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import { CircuitBreakerRegistry } from './circuit-breaker-registry.js';
import {
  InMemoryCircuitBreakerStore,
  type BreakerHandle,
  type CircuitBreakerStore,
} from './circuit-breaker-store.js';
import { ToolCircuitBreaker } from './circuit-breaker.js';
import type { SharedBreakerWindow, SharedWindowCounts } from './shared-breaker-window.js';

/** A shared window as another process would fill it: counts and trial slots held here. */
class SharedWindowStub implements SharedBreakerWindow {
  readonly counted: string[] = [];
  readonly released: string[] = [];
  others: SharedWindowCounts = { successes: 0, failures: 0 };
  trialsLeft = 1;
  /** Set: a failure is confirmed only when `confirm()` is called (as a store's round trip). */
  holdFailures = false;
  private confirmations: (() => void)[] = [];

  count(key: string, failed: boolean): Promise<void> | undefined {
    this.counted.push(`${key}:${failed ? 'f' : 's'}`);
    if (!failed || !this.holdFailures) return undefined;
    return new Promise((resolve) => this.confirmations.push(resolve));
  }
  confirm(): void {
    for (const resolve of this.confirmations.splice(0)) resolve();
  }
  remote(): SharedWindowCounts {
    return this.others;
  }
  acquireTrial(): Promise<boolean> {
    return Promise.resolve(this.trialsLeft-- > 0);
  }
  releaseTrial(key: string): void {
    this.released.push(key);
  }
}

const down = (): Promise<never> => Promise.reject(new UpstreamUnavailableError('503'));
const up = (): Promise<string> => Promise.resolve('ok');

function setup() {
  const clock = new VirtualClock({ startMs: 0 });
  const shared = new SharedWindowStub();
  const breaker = new ToolCircuitBreaker(
    { volumeThreshold: 10, errorThresholdPercentage: 50, resetTimeoutMs: 1_000 },
    { clock, tool: 'search', shared },
  );
  return { clock, shared, breaker };
}

describe('a breaker with a shared window', () => {
  it('reports each counted outcome and decides on its own counts plus the others', async () => {
    const { shared, breaker } = setup();
    shared.others = { successes: 0, failures: 8 };
    await expect(breaker.execute(up)).resolves.toBe('ok');
    await expect(breaker.execute(down)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(breaker.state).toBe('open');
    expect(shared.counted).toEqual(['search:s', 'search:f']);
  });

  it('opens on reconsider() when the others crossed the threshold, and not before', () => {
    const { shared, breaker } = setup();
    shared.others = { successes: 1, failures: 8 };
    breaker.reconsider();
    expect(breaker.state).toBe('closed');
    shared.others = { successes: 1, failures: 9 };
    breaker.reconsider();
    expect(breaker.state).toBe('open');
  });

  it('holds its calls after a failure until the shared window has it, then decides on the counts that came back', async () => {
    const { shared, breaker } = setup();
    shared.holdFailures = true;
    await expect(breaker.execute(down)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    let ran = 0;
    const held = breaker.execute(() => (ran++, up()));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(ran).toBe(0);
    // The round trip brings the others' failures back: the store reconsiders, then confirms.
    shared.others = { successes: 0, failures: 9 };
    breaker.reconsider();
    shared.confirm();
    await expect(held).rejects.toBeInstanceOf(CircuitOpenError);
    expect(ran).toBe(0);
  });

  it('lets the held calls through when the confirmed counts do not open it', async () => {
    const { shared, breaker } = setup();
    shared.holdFailures = true;
    await expect(breaker.execute(down)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const held = breaker.execute(up);
    shared.confirm();
    await expect(held).resolves.toBe('ok');
    // A success is never held.
    await expect(breaker.execute(up)).resolves.toBe('ok');
    expect(shared.counted).toEqual(['search:f', 'search:s', 'search:s']);
  });

  it('takes the shared trial slot while half-open, and gives it back after a neutral error', async () => {
    const { clock, shared, breaker } = setup();
    breaker.open();
    await clock.advanceBy(1_000);
    shared.trialsLeft = 0;
    let ran = 0;
    await expect(breaker.execute(() => (ran++, up()))).rejects.toBeInstanceOf(CircuitOpenError);
    expect(ran).toBe(0);
    shared.trialsLeft = 1;
    await expect(
      breaker.execute(() => Promise.reject(new InvalidInputError('bad'))),
    ).rejects.toBeInstanceOf(InvalidInputError);
    expect(shared.released).toEqual(['search']);
    shared.trialsLeft = 1;
    await expect(breaker.execute(up)).resolves.toBe('ok');
    expect(breaker.state).toBe('closed');
  });

  it('leaves closing to the shared window when it takes a trial success, and counts it itself when it cannot', async () => {
    const clock = new VirtualClock({ startMs: 0 });
    const told: boolean[] = [];
    let answer: ((taken: boolean) => void) | undefined;
    const shared = new (class extends SharedWindowStub {
      trialSucceeded(): Promise<boolean> {
        told.push(true);
        return new Promise((resolve) => (answer = resolve));
      }
    })();
    const trial = new ToolCircuitBreaker(
      { resetTimeoutMs: 1_000, halfOpenMaxCalls: 1 },
      { clock, tool: 'search', shared },
    );
    trial.open();
    await clock.advanceBy(1_000);
    await expect(trial.execute(up)).resolves.toBe('ok');
    // Told, and still half-open: the shared window decides (and hydrates it when it closes).
    expect([told.length, trial.state]).toEqual([1, 'half_open']);
    answer?.(true);
    await Promise.resolve();
    expect(trial.state).toBe('half_open');
    trial.hydrate({ state: 'closed', savedAt: clock.now() });
    expect(trial.state).toBe('closed');

    // The shared window could not be told after all: the breaker counts the success itself.
    trial.open();
    await clock.advanceBy(1_000);
    shared.trialsLeft = 1;
    await expect(trial.execute(up)).resolves.toBe('ok');
    answer?.(false);
    await Promise.resolve();
    await Promise.resolve();
    expect(trial.state).toBe('closed');
    trial.dispose();
  });

  it('comes from the store through the registry, which attaches every breaker to it', () => {
    const shared = new SharedWindowStub();
    const attached: BreakerHandle[] = [];
    const memory = new InMemoryCircuitBreakerStore();
    const store: CircuitBreakerStore = {
      get: (key) => memory.get(key),
      set: (key, snapshot) => memory.set(key, snapshot),
      sharedWindow: shared,
      attach: (breaker) => attached.push(breaker),
    };
    const registry = new CircuitBreakerRegistry({ clock: new VirtualClock(), store });
    const breaker = registry.get('search', { volumeThreshold: 2 });
    expect(attached).toEqual([breaker]);
    shared.others = { successes: 0, failures: 2 };
    breaker.reconsider();
    expect(breaker.state).toBe('open');
    registry.dispose();
  });
});

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

  count(key: string, failed: boolean): void {
    this.counted.push(`${key}:${failed ? 'f' : 's'}`);
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

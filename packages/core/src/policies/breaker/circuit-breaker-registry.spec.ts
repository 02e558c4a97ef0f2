import { describe, expect, it, jest } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import type { BreakerStateChangedEvent } from '../../events/tool-event.js';
import { CircuitBreakerRegistry } from './circuit-breaker-registry.js';
import {
  InMemoryCircuitBreakerStore,
  type CircuitBreakerSnapshot,
} from './circuit-breaker-store.js';

const down = async (): Promise<never> => {
  throw new UpstreamUnavailableError('503');
};

describe('CircuitBreakerRegistry', () => {
  it('keeps one breaker per key, with per-breaker overrides over the defaults', () => {
    const registry = new CircuitBreakerRegistry({
      clock: new VirtualClock(),
      defaults: { resetTimeoutMs: 5_000 },
    });
    const a = registry.get('search:tenant-a', { tool: 'search', halfOpenMaxCalls: 2 });
    expect(registry.get('search:tenant-a')).toBe(a);
    expect(registry.get('search:tenant-b', { tool: 'search' })).not.toBe(a);
    expect(a.tool).toBe('search');
    expect(a.options).toMatchObject({
      resetTimeoutMs: 5_000,
      halfOpenMaxCalls: 2,
      errorThresholdPercentage: 50,
    });
    expect(registry.find('nope')).toBeUndefined();
    expect(registry.all()).toHaveLength(2);
    registry.dispose();
  });

  it('runs a thousand breakers on one shared rotation with no timer, and dispose leaves nothing behind', async () => {
    const clock = new VirtualClock();
    const registry = new CircuitBreakerRegistry({ clock, defaults: { volumeThreshold: 1 } });
    const breakers = Array.from({ length: 1_000 }, (_, i) => registry.get(`tool-${i}`));
    const second = registry.get('tool-1');
    const rotation = (breakers[0] as unknown as { rotation: { listeners: number } }).rotation;
    expect(
      breakers.every(
        (breaker) => (breaker as unknown as { rotation: unknown }).rotation === rotation,
      ),
    ).toBe(true);
    expect(rotation.listeners).toBe(1_000);
    expect(clock.pendingTimers).toBe(0);
    await second.execute(down).catch(() => undefined);
    expect(second.state).toBe('open');
    expect(clock.pendingTimers).toBe(1);
    // Every close starts a fresh window; the old one stops listening to the rotation.
    for (let i = 0; i < 5; i++) second.close();
    expect(rotation.listeners).toBe(1_000);
    second.open();
    registry.dispose();
    expect(clock.pendingTimers).toBe(0);
    expect(rotation.listeners).toBe(0);
    await clock.runAll();
  });

  it('reports every state change and saves it to the store; load() restores it elsewhere', async () => {
    const clock = new VirtualClock({ startMs: 50_000 });
    const store = new InMemoryCircuitBreakerStore();
    const events: BreakerStateChangedEvent[] = [];
    const registry = new CircuitBreakerRegistry({
      clock,
      store,
      onStateChange: (event) => events.push(event),
    });
    registry.get('weather').open();
    expect(events.map((event) => event.to)).toEqual(['open']);
    await expect(store.get('weather')).resolves.toEqual({
      state: 'open',
      openedAt: 50_000,
      savedAt: 50_000,
    });

    const other = new CircuitBreakerRegistry({ clock, store });
    const restored = await other.load('weather');
    expect(restored.state).toBe('open');
    expect((await other.load('unknown')).state).toBe('closed');

    registry.get('geo');
    await registry.saveAll();
    await expect(store.get('geo')).resolves.toEqual({
      state: 'closed',
      window: { successes: 0, failures: 0 },
      savedAt: 50_000,
    });
    registry.dispose();
    other.dispose();
  });

  it('keeps working when the store fails, and reports the failure', async () => {
    const failure = new Error('redis down');
    const onStoreError = jest.fn();
    const registry = new CircuitBreakerRegistry({
      clock: new VirtualClock(),
      store: {
        get: async () => undefined,
        set: async (_key: string, _snapshot: CircuitBreakerSnapshot) => {
          throw failure;
        },
      },
      onStoreError,
    });
    registry.get('weather').isolate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(onStoreError).toHaveBeenCalledWith(failure, 'weather');
    expect(registry.get('weather').state).toBe('isolated');
    registry.delete('weather');
    expect(registry.find('weather')).toBeUndefined();
  });
});

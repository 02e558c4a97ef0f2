import { describe, expect, it } from '@jest/globals';
import { type ToolEvent } from '@toolshield/core/events';
import { type CircuitBreakerSnapshot, type CircuitBreakerStore } from '@toolshield/core/internal';
import { VirtualClock } from '@toolshield/core/testing';
import { createToolApp } from '../fixtures/create-app.js';
import { ToolCircuitBreakers } from '../../src/index.js';
import { FlakyTools } from './fixtures/flaky.tools.js';

/** A store as a user would write one over Redis or SQL: async, and it records every write. */
class RecordingStore implements CircuitBreakerStore {
  readonly snapshots = new Map<string, CircuitBreakerSnapshot>();
  readonly writes: string[] = [];

  async get(key: string): Promise<CircuitBreakerSnapshot | undefined> {
    await Promise.resolve();
    return this.snapshots.get(key);
  }

  async set(key: string, snapshot: CircuitBreakerSnapshot): Promise<void> {
    await Promise.resolve();
    this.writes.push(`${key}=${snapshot.state}`);
    this.snapshots.set(key, snapshot);
  }
}

async function app(store: CircuitBreakerStore, startMs = 0) {
  const ctx = await createToolApp([FlakyTools], {
    breakerStore: store,
    clock: new VirtualClock({ startMs }),
  });
  const tools = ctx.moduleRef.get(FlakyTools);
  const events: ToolEvent[] = [];
  ctx.executor.events$.subscribe((event) => events.push(event));
  const call = (steps: FlakyTools['steps'] = ['ok']) => {
    tools.steps = [...steps];
    return ctx.executor.execute({ id: 'c', name: 'upstream', arguments: {} });
  };
  return { ...ctx, tools, events, call, breakers: ctx.moduleRef.get(ToolCircuitBreakers) };
}

describe('breaker state through a custom breakerStore', () => {
  it('exports every transition to the store, and a new instance hydrates the open breaker from it', async () => {
    const store = new RecordingStore();
    const first = await app(store);
    for (let i = 0; i < 4; i++) await first.call(['unavailable']);
    expect(first.breakers.find('upstream')?.state).toBe('open');
    await first.close();
    expect(store.snapshots.get('upstream')).toEqual({ state: 'open', openedAt: 0, savedAt: 0 });
    expect(first.clock.pendingTimers).toBe(0);

    const second = await app(store, 4_000);
    expect(await second.call()).toMatchObject({ errorType: 'circuit_open', retryAfterMs: 6_000 });
    expect(second.tools.invocations).toHaveLength(0);
    await second.clock.advanceBy(6_000);
    expect(await second.call()).toMatchObject({ success: true });
    expect(second.tools.invocations).toHaveLength(1);
    expect(store.snapshots.get('upstream')?.state).toBe('closed');
    expect(store.writes).toEqual([
      'upstream=open',
      'upstream=open',
      'upstream=half_open',
      'upstream=closed',
    ]);
    await second.close();
    expect(second.clock.pendingTimers).toBe(0);
  });

  it('loads a stored state once, however many calls arrive before it is loaded', async () => {
    const store = new RecordingStore();
    store.snapshots.set('upstream', { state: 'isolated', savedAt: 0 });
    const ctx = await app(store);
    const outcomes = await Promise.all([ctx.call(), ctx.call(), ctx.call()]);
    expect(outcomes.map((outcome) => !outcome.success && outcome.errorType)).toEqual([
      'circuit_open',
      'circuit_open',
      'circuit_open',
    ]);
    expect(ctx.tools.invocations).toHaveLength(0);
    expect(ctx.events.filter((event) => event.type === 'breaker.state_changed')).toHaveLength(1);
    await expect(ctx.breakers.close('upstream')).resolves.toMatchObject({ state: 'closed' });
    expect(await ctx.call()).toMatchObject({ success: true });
    await ctx.close();
  });

  it('runs with a fresh breaker when the store cannot be read', async () => {
    const broken: CircuitBreakerStore = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.resolve(),
    };
    const ctx = await app(broken);
    expect(await ctx.call()).toMatchObject({ success: true });
    expect(ctx.breakers.states()).toEqual([{ key: 'upstream', tool: 'upstream', state: 'closed' }]);
    await ctx.close();
  });
});

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ToolCircuitBreakers, ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { createSampleApp } from '../../test/fixtures/sample-app.js';
import type { RunTracing } from '../telemetry/run-tracing.js';
import { RunIdempotencyKeys } from './idempotency-keys.js';
import type { RunEventHub } from './run-event-hub.js';
import { RunLanes } from './run-lanes.js';
import { RunToolCalls } from './run-tool-calls.js';

describe('run lanes', () => {
  it('gives each live run the lowest free lane, the same while it runs, and reuses it after', () => {
    const lanes = new RunLanes();
    expect([lanes.take('a'), lanes.take('b'), lanes.take('a'), lanes.take('c')]).toEqual([
      1, 2, 1, 3,
    ]);
    expect(lanes.release('b')).toBe(2);
    expect(lanes.holder(2)).toBeUndefined();
    expect(lanes.take('d')).toBe(2);
    expect(lanes.holder(2)).toBe('d');
    expect(lanes.release('nobody')).toBeUndefined();
  });
});

describe('per-run breakers', () => {
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  let breakers: ToolCircuitBreakers;
  let calls: RunToolCalls;
  const emitted: { runId: string; type: string }[] = [];

  beforeEach(async () => {
    app = await createSampleApp();
    breakers = app.moduleRef.get(ToolCircuitBreakers);
    emitted.length = 0;
    const hub = {
      emit: (runId: string, data: { type: string }) => emitted.push({ runId, type: data.type }),
      flush: async () => undefined,
    } as unknown as RunEventHub;
    const executor = app.moduleRef.get(ToolExecutor);
    calls = new RunToolCalls(hub, executor, app.moduleRef.get(ToolRegistry), breakers);
    executor.events$.subscribe((event) => calls.route(event));
  });
  afterEach(() => app.close());

  const tracing = { toolCall: (_id: string, call: () => unknown) => call() } as RunTracing;
  const search = (runId: string) =>
    app.inVirtualTime(
      calls.executorFor(runId, { tracing, keys: new RunIdempotencyKeys(runId) })(
        { id: `${runId}-search`, name: 'news_search', arguments: { query: 'outage' } },
        {},
      ),
    );

  it("keeps a run's breaker to that run, and hands its lane on closed", async () => {
    await search('run-a');
    await breakers.open('news_search:lane-1');
    // Run A's breaker is open; run B, beside it, has its own.
    await expect(search('run-b')).resolves.toMatchObject({ success: true });
    await expect(search('run-a')).resolves.toMatchObject({ errorType: 'circuit_open' });
    expect(emitted.filter(({ type }) => type === 'breaker.state_changed')).toEqual([
      { runId: 'run-a', type: 'breaker.state_changed' },
    ]);

    await calls.forget('run-a');
    expect(breakers.find('news_search:lane-1')?.state).toBe('closed');
    // Run C takes run A's lane, and its breaker closed.
    await expect(search('run-c')).resolves.toMatchObject({ success: true });
    expect(
      breakers
        .states()
        .map(({ key }) => key)
        .sort(),
    ).toEqual(['news_search:lane-1', 'news_search:lane-2']);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { ToolEvent } from '@toolshield/core/events';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { FlakyTools } from './fixtures/flaky.tools.js';

/** The delays the executor scheduled for a call that fails twice, with this random source. */
const scheduledDelays = async (random?: () => number) => {
  const ctx = await createToolApp([FlakyTools], random ? { random } : {});
  ctx.moduleRef.get(FlakyTools).steps = ['econnreset', 'econnreset', 'ok'];
  const events: ToolEvent[] = [];
  ctx.executor.events$.subscribe((event) => events.push(event));
  await settle(ctx.clock, ctx.executor.execute({ id: 'c', name: 'idempotent', arguments: {} }));
  await ctx.close();
  return events.flatMap((event) => (event.type === 'retry.scheduled' ? [event.delayMs] : []));
};

describe('retry jitter source', () => {
  it("draws every tool's jitter from the module's random source", async () => {
    // Decorrelated jitter: base + random * (3 x previous - base), capped; 500 ms base by default.
    expect(await scheduledDelays(() => 0)).toEqual([500, 500]);
    const [first, second] = await scheduledDelays(() => 0.5);
    expect(first).toBeGreaterThan(500);
    expect(second).toBeGreaterThan(first as number);
  });

  it('replays the same delays from the same seeded sequence', async () => {
    const seeded = () => {
      let state = 7;
      return () => (state = (state * 16807) % 2147483647) / 2147483647;
    };
    expect(await scheduledDelays(seeded())).toEqual(await scheduledDelays(seeded()));
  });
});

import { afterEach, describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { ToolBatchRunner, type ToolShieldModuleOptions } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { TripTools } from './fixtures/trip.tools.js';

describe('ToolBatchRunner', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => ctx.close());

  async function start(options: ToolShieldModuleOptions = {}) {
    ctx = await createToolApp([TripTools], options);
    return { batches: ctx.moduleRef.get(ToolBatchRunner), tools: ctx.moduleRef.get(TripTools) };
  }

  it('runs a parallel batch where one call fails, its siblings succeed, and results come back in call order', async () => {
    const { batches } = await start();
    const pending = batches.run(
      [
        { id: 'c1', name: 'lookup', arguments: { city: 'Paris', delayMs: 300 } },
        { id: 'c2', name: 'lookup', arguments: { city: 'Atlantis', delayMs: 100 } },
        { id: 'c3', name: 'lookup', arguments: { city: 'Oslo', delayMs: 200 } },
      ],
      { strategy: 'parallel', concurrency: 3 },
    );
    await ctx.clock.advanceBy(300);
    const { entries, terminatedBy } = await pending;

    expect(entries.map((entry) => entry.callId)).toEqual(['c1', 'c2', 'c3']);
    expect(entries.map((entry) => entry.disposition)).toEqual(['executed', 'executed', 'executed']);
    expect((entries[0].outcome as ToolResult).output).toEqual({ city: 'Paris', country: 'France' });
    expect(entries[1].outcome).toMatchObject({
      success: false,
      errorType: 'not_found',
      recoverable: false,
    });
    expect((entries[2].outcome as ToolResult).output).toEqual({ city: 'Oslo', country: 'Norway' });
    expect(terminatedBy).toBeUndefined();
  });

  it('ends a sequential batch at a terminating tool and answers the later calls without running them', async () => {
    const { batches, tools } = await start();
    const { entries, terminatedBy } = await batches.run([
      { id: 'c1', name: 'record', arguments: { line: 'first' } },
      { id: 'c2', name: 'complete', arguments: { answer: 'Done.' } },
      { id: 'c3', name: 'record', arguments: { line: 'after the end' } },
    ]);

    expect(tools.recorded).toEqual(['first']);
    expect(terminatedBy?.callId).toBe('c2');
    expect(entries.map((entry) => entry.disposition)).toEqual(['executed', 'executed', 'skipped']);
    const skipped = entries[2].outcome as ToolFailure;
    expect(skipped).toMatchObject({ success: false, callId: 'c3', errorType: 'cancelled' });
    expect(skipped.error).toBe("Not run: 'complete' (call c2) ended the turn first.");
  });

  it("takes terminating tools from the module's agent options, and lets a call's options override them", async () => {
    const { batches, tools } = await start({ agent: { batch: { terminatingTools: ['record'] } } });
    const calls = [
      { id: 'c1', name: 'record', arguments: { line: 'one' } },
      { id: 'c2', name: 'record', arguments: { line: 'two' } },
    ];

    const byModule = await batches.run(calls);
    expect(byModule.terminatedBy?.callId).toBe('c1');
    expect(tools.recorded).toEqual(['one']);

    const byCall = await batches.run(calls, { terminatingTools: [] });
    expect(byCall.terminatedBy).toBeUndefined();
    expect(tools.recorded).toEqual(['one', 'one', 'two']);
  });

  it('passes the execute options to every call', async () => {
    const { batches, tools } = await start();
    await batches.run(
      [
        { id: 'c1', name: 'lookup', arguments: { city: 'Lima' } },
        { id: 'c2', name: 'lookup', arguments: { city: 'Oslo' } },
      ],
      { execute: { metadata: { conversationId: 'conv-7' } } },
    );
    expect(tools.contexts.map((call) => call.metadata)).toEqual([
      { conversationId: 'conv-7' },
      { conversationId: 'conv-7' },
    ]);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';
import { deferred, failed, flushPromises, succeeded, type Deferred } from '../fixtures.test.js';
import { runToolBatch } from './run-tool-batch.js';
import type { ToolCallExecutor } from './tool-call-executor.js';

const call = (id: string, name = 'search'): ToolCallRequest => ({ id, name, arguments: '{}' });

/** An executor whose calls finish only when the test says so; it records the calls in flight. */
function controlledExecutor() {
  const pending = new Map<string, Deferred<ToolOutcome>>();
  let inFlight = 0;
  let maxInFlight = 0;
  const started: string[] = [];
  const executor: ToolCallExecutor = async (request) => {
    started.push(request.id ?? '');
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const gate = deferred<ToolOutcome>();
    pending.set(request.id ?? '', gate);
    const outcome = await gate.promise;
    inFlight -= 1;
    return outcome;
  };
  const finish = async (request: ToolCallRequest, outcome: ToolOutcome = succeeded(request)) => {
    await flushPromises();
    pending.get(request.id ?? '')?.resolve(outcome);
    await flushPromises();
  };
  return { executor, finish, started, maxInFlight: () => maxInFlight };
}

describe('runToolBatch', () => {
  it('runs sequentially in order and keeps going after a failure', async () => {
    const order: string[] = [];
    const calls = [call('a'), call('b'), call('c')];
    const result = await runToolBatch(calls, async (request) => {
      order.push(request.id ?? '');
      return request.id === 'b' ? failed(request) : succeeded(request);
    });
    expect(order).toEqual(['a', 'b', 'c']);
    expect(result.entries.map((e) => [e.callId, e.outcome.success, e.disposition])).toEqual([
      ['a', true, 'executed'],
      ['b', false, 'executed'],
      ['c', true, 'executed'],
    ]);
  });

  it('returns results in call order, whatever order the parallel calls finish in', async () => {
    const { executor, finish, maxInFlight } = controlledExecutor();
    const calls = [call('a'), call('b'), call('c')];
    const running = runToolBatch(calls, executor, { strategy: 'parallel' });
    await finish(calls[2]);
    await finish(calls[1], failed(calls[1]));
    await finish(calls[0]);
    const result = await running;
    expect(maxInFlight()).toBe(3);
    expect(result.entries.map((e) => [e.callId, e.outcome.success])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('never has more calls in flight than the concurrency bound', async () => {
    const { executor, finish, started, maxInFlight } = controlledExecutor();
    const calls = ['a', 'b', 'c', 'd', 'e'].map((id) => call(id));
    const running = runToolBatch(calls, executor, { strategy: 'parallel', concurrency: 2 });
    await flushPromises();
    expect(started).toEqual(['a', 'b']);
    for (const request of calls) await finish(request);
    await running;
    expect(maxInFlight()).toBe(2);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('runs unsafe calls alone and in order between groups of safe ones', async () => {
    const { executor, finish, started } = controlledExecutor();
    const calls = [call('r1', 'read'), call('r2', 'read'), call('w', 'write'), call('r3', 'read')];
    const running = runToolBatch(calls, executor, {
      strategy: 'parallel',
      isConcurrencySafe: (request) => request.name === 'read',
    });
    await flushPromises();
    expect(started).toEqual(['r1', 'r2']);
    await finish(calls[0]);
    expect(started).toEqual(['r1', 'r2']);
    await finish(calls[1]);
    expect(started).toEqual(['r1', 'r2', 'w']);
    await finish(calls[2]);
    await finish(calls[3]);
    expect((await running).entries).toHaveLength(4);
  });

  it('ends a batch at a successful terminating tool and says why the rest did not run', async () => {
    const ran: string[] = [];
    const calls = [call('a'), call('done', 'complete'), call('b'), call('c', 'attempt_completion')];
    const result = await runToolBatch(calls, async (request) => {
      ran.push(request.id ?? '');
      return succeeded(request);
    });
    expect(ran).toEqual(['a', 'done']);
    expect(result.terminatedBy?.callId).toBe('done');
    for (const skipped of result.entries.slice(2)) {
      expect(skipped.disposition).toBe('skipped');
      expect(skipped.outcome).toMatchObject({
        success: false,
        errorType: 'cancelled',
        error: "Not run: 'complete' (call done) ended the turn first.",
      });
    }
  });

  it('does the same in parallel mode, where a terminating call runs alone', async () => {
    const ran: string[] = [];
    const calls = [call('a'), call('b'), call('ask', 'ask'), call('c')];
    const result = await runToolBatch(
      calls,
      async (request) => {
        ran.push(request.id ?? '');
        return succeeded(request);
      },
      { strategy: 'parallel', terminatingTools: ['ask'] },
    );
    expect(ran).toEqual(['a', 'b', 'ask']);
    expect(result.entries.map((e) => e.disposition)).toEqual([
      'executed',
      'executed',
      'executed',
      'skipped',
    ]);
  });

  it('does not end the batch when the terminating tool fails', async () => {
    const calls = [call('done', 'complete'), call('b')];
    const result = await runToolBatch(calls, async (request) =>
      request.name === 'complete' ? failed(request, 'invalid_input') : succeeded(request),
    );
    expect(result.terminatedBy).toBeUndefined();
    expect(result.entries[1].outcome.success).toBe(true);
  });

  it('gives one result per call when the executor rejects, throws or returns garbage', async () => {
    const calls = [call('reject'), call('throw'), call('garbage'), call('fine')];
    const executor = ((request: ToolCallRequest) => {
      if (request.id === 'reject') return Promise.reject(new Error('boom'));
      if (request.id === 'throw') throw new Error('sync boom');
      if (request.id === 'garbage') return Promise.resolve({ nope: true });
      return Promise.resolve(succeeded(request));
    }) as unknown as ToolCallExecutor;
    const result = await runToolBatch(calls, executor, { strategy: 'parallel' });
    expect(
      result.entries.map((e) => [e.callId, e.outcome.success ? 'ok' : e.outcome.errorType]),
    ).toEqual([
      ['reject', 'internal'],
      ['throw', 'internal'],
      ['garbage', 'internal'],
      ['fine', 'ok'],
    ]);
  });

  it('rejects malformed calls without running them', async () => {
    const calls = [{ name: 'search' }, { id: 'x', name: '' }, null] as unknown as ToolCallRequest[];
    let runs = 0;
    const result = await runToolBatch(calls, async (request) => {
      runs += 1;
      return succeeded(request);
    });
    expect(runs).toBe(0);
    expect(
      result.entries.map((e) => [
        e.callId,
        e.disposition,
        e.outcome.success ? '' : e.outcome.errorType,
      ]),
    ).toEqual([
      ['unidentified_call_0', 'rejected', 'invalid_input'],
      ['x', 'rejected', 'invalid_input'],
      ['unidentified_call_2', 'rejected', 'invalid_input'],
    ]);
  });

  it('skips calls not yet started once the signal aborts, and tells observers about every call', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const calls = [call('a'), call('b'), call('c')];
    const result = await runToolBatch(
      calls,
      async (request) => {
        controller.abort();
        return succeeded(request);
      },
      {
        signal: controller.signal,
        onEntry: (_entry, index) => {
          seen.push(index);
          throw new Error('observer bug');
        },
      },
    );
    expect(seen).toEqual([0, 1, 2]);
    expect(result.entries.map((e) => e.disposition)).toEqual(['executed', 'skipped', 'skipped']);
    expect(result.entries[1].outcome).toMatchObject({ errorType: 'cancelled' });
  });
});

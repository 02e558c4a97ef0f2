import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { BulkheadFullError } from '../errors/bulkhead-full.error.js';
import { CancelledError } from '../errors/cancelled.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import { Bulkhead } from './bulkhead.js';

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Bulkhead', () => {
  it('runs maxConcurrent calls, queues maxQueue, rejects the rest with BulkheadFullError', async () => {
    const bulkhead = new Bulkhead({ maxConcurrent: 2, maxQueue: 1, toolName: 'db' });
    const release = gate();
    const started: number[] = [];
    const run = (id: number) =>
      bulkhead.execute(async () => {
        started.push(id);
        await release.opened;
        return id;
      });
    const calls = [run(1), run(2), run(3)];
    await expect(run(4)).rejects.toBeInstanceOf(BulkheadFullError);
    await expect(run(5)).rejects.toMatchObject({
      toolName: 'db',
      metadata: { maxConcurrent: 2, maxQueue: 1 },
    });
    await flush();
    expect(started).toEqual([1, 2]);
    expect({ active: bulkhead.active, queued: bulkhead.queued }).toEqual({ active: 2, queued: 1 });
    release.open();
    await expect(Promise.all(calls)).resolves.toEqual([1, 2, 3]);
    expect(started).toEqual([1, 2, 3]);
    expect({ active: bulkhead.active, queued: bulkhead.queued }).toEqual({ active: 0, queued: 0 });
  });

  it('frees the slot when a call fails', async () => {
    const bulkhead = new Bulkhead({ maxConcurrent: 1 });
    await expect(
      bulkhead.execute(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(bulkhead.execute(async () => 'next')).resolves.toBe('next');
  });

  it('lets a queued caller abort and leave the queue', async () => {
    const bulkhead = new Bulkhead({ maxConcurrent: 1, maxQueue: 2 });
    const release = gate();
    const first = bulkhead.execute(() => release.opened);
    const caller = new AbortController();
    let ran = false;
    const queued = bulkhead.execute(async () => {
      ran = true;
    }, caller.signal);
    const timedOut = new AbortController();
    const third = bulkhead.execute(async () => 'third', timedOut.signal);
    expect(bulkhead.queued).toBe(2);
    caller.abort();
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
    timedOut.abort(new ToolTimeoutError('attempt timed out'));
    await expect(third).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(bulkhead.queued).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    release.open();
    await first;
    expect(ran).toBe(false);
    expect(bulkhead.active).toBe(0);
  });

  it('removes the abort listener of a queued call once it starts', async () => {
    const bulkhead = new Bulkhead({ maxConcurrent: 1, maxQueue: 1 });
    const release = gate();
    const first = bulkhead.execute(() => release.opened);
    const caller = new AbortController();
    const second = bulkhead.execute(async () => 'second', caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    release.open();
    await first;
    await expect(second).resolves.toBe('second');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

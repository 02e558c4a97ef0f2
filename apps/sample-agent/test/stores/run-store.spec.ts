import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ConversationMessage } from '@toolshield/core/agent';
import fc from 'fast-check';
import type { RunEvent } from '../../src/runs/run-event.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import type { RunStore } from '../../src/runs/run-store.js';
import { STORE_BACKENDS } from '../fixtures/stores.js';

const run = (id: string, createdAt: string): RunRecord => ({
  id,
  task: 'List the pods.',
  scenario: 'kube-missing-namespace',
  model: 'scripted',
  status: 'running',
  createdAt,
});

const event = (runId: string, seq: number): RunEvent => ({
  runId,
  seq,
  at: 1_763_800_000_000 + seq,
  data: { type: 'model.request', step: seq, messages: seq },
});

describe.each(STORE_BACKENDS)('the run store on $name', (backend) => {
  let store: RunStore;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ store, dispose } = await backend.open());
    await store.migrate();
  });
  afterEach(() => dispose());

  it('migrates twice without harm', async () => {
    await expect(store.migrate()).resolves.toBeUndefined();
  });

  it('creates, finishes, lists newest first, and finds the runs still running', async () => {
    await store.createRun(run('a', '2026-11-22T10:00:00.000Z'));
    await store.createRun(run('b', '2026-11-22T11:00:00.000Z'));
    await store.finishRun('a', {
      status: 'stopped',
      finishedAt: '2026-11-22T10:01:00.000Z',
      finalAnswer: 'I could not deploy.',
      reason: { code: 'terminating_tool', tool: 'attempt_completion', message: 'STOP: denied.' },
    });

    expect(await store.getRun('a')).toEqual({
      ...run('a', '2026-11-22T10:00:00.000Z'),
      status: 'stopped',
      finishedAt: '2026-11-22T10:01:00.000Z',
      finalAnswer: 'I could not deploy.',
      reason: { code: 'terminating_tool', tool: 'attempt_completion', message: 'STOP: denied.' },
    });
    expect(await store.getRun('missing')).toBeUndefined();
    expect((await store.listRuns()).map((record) => record.id)).toEqual(['b', 'a']);
    expect((await store.runningRuns()).map((record) => record.id)).toEqual(['b']);
  });

  it('keeps every event in order and reads them after a sequence number', async () => {
    await store.createRun(run('a', '2026-11-22T10:00:00.000Z'));
    const events = Array.from({ length: 450 }, (_, index) => event('a', index + 1));
    await store.appendEvents(events.slice(0, 1));
    await store.appendEvents(events.slice(1));

    expect(await store.events('a')).toEqual(events);
    expect((await store.events('a', 447)).map((stored) => stored.seq)).toEqual([448, 449, 450]);
    expect(await store.events('b')).toEqual([]);
  });

  it('refuses a sequence number twice (no event is silently replaced)', async () => {
    await store.appendEvents([event('a', 1)]);
    await expect(store.appendEvents([event('a', 1)])).rejects.toThrow();
  });

  it('is the ledger store: saves and replaces a conversation', async () => {
    const history: ConversationMessage[] = [
      { role: 'user', content: 'Deploy web.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'deploy', arguments: '{}' }],
      },
    ];
    expect(await store.load('a')).toBeUndefined();
    await store.save('a', history.slice(0, 1));
    await store.save('a', history);
    expect(await store.load('a')).toEqual(history);
  });

  it('keeps the newest history when saves of one conversation come faster than writes', async () => {
    const histories = Array.from({ length: 30 }, (_, index): ConversationMessage[] =>
      Array.from({ length: index + 1 }, (__, line) => ({ role: 'user', content: `line ${line}` })),
    );
    await Promise.all(histories.map((history) => store.save('a', history)));
    expect(await store.load('a')).toEqual(histories.at(-1));
    await store.save('a', histories[0] ?? []);
    expect(await store.load('a')).toEqual(histories[0]);
  });

  it('keeps a run’s idempotency key, finds the run by it, and refuses the key twice', async () => {
    await store.createRun(run('a', '2026-11-24T10:00:00.000Z'), { key: 'k-1', fingerprint: 'f-1' });
    await store.createRun(run('b', '2026-11-24T10:00:01.000Z'));
    await store.createRun(run('c', '2026-11-24T10:00:02.000Z'));
    expect(await store.runByIdempotencyKey('k-1')).toEqual({
      run: run('a', '2026-11-24T10:00:00.000Z'),
      fingerprint: 'f-1',
    });
    expect(await store.runByIdempotencyKey('k-2')).toBeUndefined();
    await expect(
      store.createRun(run('d', '2026-11-24T10:00:03.000Z'), { key: 'k-1', fingerprint: 'f-2' }),
    ).rejects.toThrow();
    expect(await store.getRun('d')).toBeUndefined();
  });

  it('pages through any set of runs, every run once, in the order of the whole list', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Runs with colliding timestamps too: the id breaks the tie.
        fc.uniqueArray(
          fc.tuple(
            fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 4, maxLength: 4 }),
            fc.integer({ min: 0, max: 3 }),
          ),
          {
            minLength: 0,
            maxLength: 12,
            selector: ([id]) => id,
          },
        ),
        fc.integer({ min: 1, max: 5 }),
        async (rows, limit) => {
          const prefix = `p${Math.random().toString(36).slice(2, 8)}`;
          const created = rows.map(([id, second]) =>
            run(`${prefix}-${id}`, `2030-01-01T00:00:0${second}.000Z`),
          );
          for (const record of created) await store.createRun(record);
          const all = (await store.listRuns(1_000)).filter((record) =>
            record.id.startsWith(prefix),
          );
          const paged: string[] = [];
          let after: { createdAt: string; id: string } | undefined;
          for (;;) {
            const page = await store.listRuns(limit, after);
            const ours = page.filter((record) => record.id.startsWith(prefix));
            paged.push(...ours.map((record) => record.id));
            const last = page.at(-1);
            if (!last || page.length < limit) break;
            after = { createdAt: last.createdAt, id: last.id };
          }
          expect(paged).toEqual(all.map((record) => record.id));
        },
      ),
      { numRuns: 15 },
    );
  });
});

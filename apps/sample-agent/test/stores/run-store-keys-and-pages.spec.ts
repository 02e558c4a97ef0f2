import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RunRecord } from '../../src/runs/run-record.js';
import type { RunStore } from '../../src/runs/run-store.js';
import { STORE_BACKENDS } from '../fixtures/stores.js';

const run = (id: string, createdAt: string): RunRecord => ({
  id,
  task: 'List the pods.',
  model: 'scripted',
  status: 'running',
  createdAt,
});

describe.each(STORE_BACKENDS)('idempotency keys and pages on $name', (backend) => {
  let store: RunStore;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ store, dispose } = await backend.open());
    await store.migrate();
  });
  afterEach(() => dispose());

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

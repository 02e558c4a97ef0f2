import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ApprovalRecord } from '@toolshield/core/approvals';
import type { RunStore } from '../../src/runs/run-store.js';
import { STORE_BACKENDS } from '../fixtures/stores.js';

const NOW = 1_795_000_000_000;

const request = (id: string, runId = 'run-1', expiresAt = NOW + 60_000): ApprovalRecord => ({
  id,
  tool: 'pay_invoice',
  callId: `call_${id}`,
  args: { invoice: 'INV-2048', amount: 4800, currency: 'EUR', card: '4111111111111111' },
  shownArgs: { invoice: 'INV-2048', amount: 4800, currency: 'EUR', card: '[REDACTED]' },
  idempotencyKey: `${runId}:call_${id}`,
  conversationId: runId,
  metadata: { runId },
  requestedAt: NOW,
  expiresAt,
  status: 'pending',
});

describe.each(STORE_BACKENDS)('the approvals and waiting runs on $name', (backend) => {
  let store: RunStore;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ store, dispose } = await backend.open());
    await store.migrate();
  });
  afterEach(() => dispose());

  it('keeps a request as it was stored, and lists by status and run, oldest first', async () => {
    await store.approvals.create(request('a'));
    await store.approvals.create({ ...request('b', 'run-2'), requestedAt: NOW - 1 });
    expect(await store.approvals.get('a')).toEqual(request('a'));
    expect(await store.approvals.get('missing')).toBeUndefined();
    expect((await store.approvals.list()).map((record) => record.id)).toEqual(['b', 'a']);
    expect((await store.approvals.list({ conversationId: 'run-1' })).map((r) => r.id)).toEqual([
      'a',
    ]);
    expect(await store.approvals.list({ status: 'approved' })).toEqual([]);
  });

  it('lets exactly one of many concurrent decisions through, before the expiry only', async () => {
    await store.approvals.create(request('a'));
    const results = await Promise.all(
      ['approved', 'denied', 'approved', 'denied', 'approved'].map((status, n) =>
        store.approvals.decide(
          'a',
          { status: status as 'approved' | 'denied', by: `person ${n}`, at: NOW + n },
          NOW + 1_000,
        ),
      ),
    );
    const winners = results.filter((result) => result.won);
    expect(winners).toHaveLength(1);
    const settled = await store.approvals.get('a');
    expect(settled?.decision).toEqual(winners[0]?.record?.decision);
    expect(results.every((result) => result.record?.status === settled?.status)).toBe(true);

    await store.approvals.create(request('late', 'run-1', NOW + 10));
    const late = await store.approvals.decide(
      'late',
      { status: 'approved', at: NOW + 10 },
      NOW + 10,
    );
    expect(late).toEqual({ record: request('late', 'run-1', NOW + 10), won: false });
    const early = await store.approvals.decide('late', { status: 'expired', at: NOW + 9 }, NOW + 9);
    expect(early.won).toBe(false);
    const expired = await store.approvals.decide(
      'late',
      { status: 'expired', at: NOW + 10 },
      NOW + 10,
    );
    expect(expired).toMatchObject({ won: true, record: { status: 'expired' } });
    expect(await store.approvals.decide('missing', { status: 'approved', at: NOW }, NOW)).toEqual({
      record: undefined,
      won: false,
    });
  });

  it('moves a run to awaiting_approval and back, each once however many try', async () => {
    await store.createRun({
      id: 'run-1',
      task: 'Pay invoice INV-2048: 4800 EUR.',
      model: 'scripted',
      status: 'running',
      createdAt: '2026-11-28T10:00:00.000Z',
    });
    expect(await store.wakeRun('run-1')).toBe(false);
    expect(await store.suspendRun('run-1')).toBe(true);
    expect((await store.getRun('run-1'))?.status).toBe('awaiting_approval');
    expect((await store.runsAwaitingApproval()).map((run) => run.id)).toEqual(['run-1']);
    expect(await store.runningRuns()).toEqual([]);
    const wakes = await Promise.all([1, 2, 3, 4].map(() => store.wakeRun('run-1')));
    expect(wakes.filter(Boolean)).toHaveLength(1);
    expect((await store.getRun('run-1'))?.status).toBe('running');
  });
});

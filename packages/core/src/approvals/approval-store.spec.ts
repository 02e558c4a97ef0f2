import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  approvalFailure,
  ApprovalNotPendingError,
  InMemoryApprovalStore,
  type ApprovalRecord,
} from '../internal.js';

const record = (overrides: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id: 'appr_1',
  tool: 'pay_invoice',
  callId: 'call_1',
  args: { invoiceId: 'inv_9', amount: 1200, apiKey: 'sk-live-123456789012345678901234' },
  shownArgs: { invoiceId: 'inv_9', amount: 1200, apiKey: '[REDACTED]' },
  idempotencyKey: 'run_1:call_1',
  conversationId: 'run_1',
  requestedAt: 1_000,
  expiresAt: 61_000,
  status: 'pending',
  ...overrides,
});

describe('InMemoryApprovalStore', () => {
  it('lets exactly one of many concurrent decisions settle a pending approval', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ approved: fc.boolean(), by: fc.string() }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (decisions) => {
          const store = new InMemoryApprovalStore();
          await store.create(record());
          const results = await Promise.all(
            decisions.map(({ approved, by }) =>
              store.decide(
                'appr_1',
                { status: approved ? 'approved' : 'denied', by, at: 2_000 },
                2_000,
              ),
            ),
          );
          const winners = results.filter((result) => result.won);
          expect(winners).toHaveLength(1);
          expect((await store.get('appr_1'))?.decision).toEqual(winners[0]?.record?.decision);
        },
      ),
    );
  });

  it('refuses a decision from expiresAt on, and an expiry before it', async () => {
    const store = new InMemoryApprovalStore();
    await store.create(record());
    expect((await store.decide('appr_1', { status: 'expired', at: 60_999 }, 60_999)).won).toBe(
      false,
    );
    expect((await store.decide('appr_1', { status: 'approved', at: 61_000 }, 61_000)).won).toBe(
      false,
    );
    const expired = await store.decide('appr_1', { status: 'expired', at: 61_000 }, 61_000);
    expect(expired).toMatchObject({ won: true, record: { status: 'expired' } });
  });

  it('lists by status and conversation, oldest first, and answers an unknown id', async () => {
    const store = new InMemoryApprovalStore();
    await store.create(record({ id: 'b', requestedAt: 2 }));
    await store.create(record({ id: 'a', requestedAt: 1, conversationId: 'run_2' }));
    await store.decide('b', { status: 'denied', at: 3 }, 3);
    expect((await store.list()).map((r) => r.id)).toEqual(['a', 'b']);
    expect((await store.list({ status: 'pending' })).map((r) => r.id)).toEqual(['a']);
    expect((await store.list({ conversationId: 'run_1' })).map((r) => r.id)).toEqual(['b']);
    expect(await store.decide('nope', { status: 'denied', at: 3 }, 3)).toEqual({
      record: undefined,
      won: false,
    });
  });
});

describe('approval failures', () => {
  it('tells the model a person declined, with the reason, and not to call again', () => {
    const failure = approvalFailure('denied', record(), { reason: 'over the monthly budget' });
    expect(failure).toMatchObject({
      success: false,
      errorType: 'approval_denied',
      recoverable: false,
      error:
        'A person declined: over the monthly budget. Do not call it again with these arguments.',
      approval: { id: 'appr_1', args: { apiKey: '[REDACTED]' }, idempotencyKey: 'run_1:call_1' },
    });
  });

  it('keeps the instruction when the reason is long', () => {
    const failure = approvalFailure('denied', record(), { reason: 'no '.repeat(200) });
    expect(failure.error).toMatch(/Do not call it again with these arguments\.$/);
  });

  it('says an expiry in its own words, with the time nobody decided within', () => {
    expect(approvalFailure('expired', record()).error).toBe(
      'Nobody approved the call within 60s, so it did not run.',
    );
  });

  it('names the id of a pending approval and says the result follows', () => {
    const failure = approvalFailure('pending', record());
    expect(failure.errorType).toBe('approval_pending');
    expect(failure.error).toContain('appr_1');
    expect(failure.error).toContain('Do not call it again');
  });
});

describe('ApprovalNotPendingError', () => {
  it('says which: unknown, decided already by whom, or expired', () => {
    expect(new ApprovalNotPendingError('x', undefined, 0).message).toBe(
      'No approval has the id x.',
    );
    const decided = record({
      status: 'approved',
      decision: { status: 'approved', by: 'ana', at: 0 },
    });
    expect(new ApprovalNotPendingError('appr_1', decided, 0)).toMatchObject({
      reason: 'decided',
      message: expect.stringContaining('approved already by ana at 1970-01-01T00:00:00.000Z'),
    });
    expect(new ApprovalNotPendingError('appr_1', record(), 61_000).reason).toBe('expired');
  });
});

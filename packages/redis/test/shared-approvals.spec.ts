import { expect, it } from '@jest/globals';
import { Injectable, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { ToolFailure } from '@toolshield/core';
import type { ApprovalRecord } from '@toolshield/core/approvals';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { RedisApprovalStore } from '../src/index.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { useRedisServer } from './support/redis-suite.js';

const suite = useRedisServer();

/** A connection the test closes after itself. */
function connection(): Redis {
  const redis = new Redis(suite.server.url, { maxRetriesPerRequest: 1 });
  suite.cleanups.push(() => void redis.disconnect());
  return redis;
}

let records = 0;
function record(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  records += 1;
  return {
    id: `appr_${records}`,
    tool: 'pay_invoice',
    callId: 'call_1',
    args: { invoiceId: 'inv_9', amount: 1_200, lines: [], extra: {} },
    shownArgs: { invoiceId: 'inv_9', amount: 1_200 },
    idempotencyKey: 'run_1:call_1',
    conversationId: 'run_1',
    requestedAt: 1_000,
    expiresAt: 61_000,
    status: 'pending',
    ...overrides,
  };
}

/** Every instance's payments, as the upstream would count them. */
const payments: string[] = [];

@Injectable()
class PaymentTools {
  @Tool({ name: 'pay_invoice', description: 'Pays an invoice.', needsApproval: true })
  pay(args: { invoiceId: string }) {
    payments.push(args.invoiceId);
    return { paid: args.invoiceId };
  }
}

/** One instance of the application: its own executor, the shared store. */
async function instance(clock: VirtualClock) {
  const app = await Test.createTestingModule({
    imports: [
      ToolShieldModule.forRoot({
        clock,
        approvals: {
          store: new RedisApprovalStore({ connection: connection(), keyPrefix: 'instances:' }),
        },
      }),
    ],
    providers: [PaymentTools],
  }).compile();
  app.useLogger(false);
  Logger.overrideLogger(false);
  await app.init();
  suite.cleanups.push(() => app.close());
  return app.get(ToolExecutor);
}

describeWithRedis('RedisApprovalStore on a real redis-server', () => {
  it('keeps a record as it was stored, empty objects and lists included', async () => {
    const store = new RedisApprovalStore({ connection: connection() });
    const stored = record();
    await store.create(stored);
    expect(await store.get(stored.id)).toEqual(stored);
    await expect(store.create(stored)).rejects.toThrow(/exists already/);
  });

  it('lets exactly one decision win, whichever instance sends it', async () => {
    const stores = [0, 1, 2].map(() => new RedisApprovalStore({ connection: connection() }));
    const on = (index: number): RedisApprovalStore =>
      stores[index % stores.length] as RedisApprovalStore;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ on: fc.nat(2), approved: fc.boolean() }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (decisions) => {
          const stored = record();
          await on(0).create(stored);
          const results = await Promise.all(
            decisions.map(({ on: index, approved }) =>
              on(index).decide(
                stored.id,
                { status: approved ? 'approved' : 'denied', by: `instance ${index}`, at: 2_000 },
                2_000,
              ),
            ),
          );
          const winners = results.filter((result) => result.won);
          expect(winners).toHaveLength(1);
          expect(await on(1).get(stored.id)).toEqual(winners[0]?.record);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('takes a decision only before expiresAt, and an expiry only from then on', async () => {
    const store = new RedisApprovalStore({ connection: connection() });
    const stored = record();
    await store.create(stored);
    expect((await store.decide(stored.id, { status: 'expired', at: 60_999 }, 60_999)).won).toBe(
      false,
    );
    expect((await store.decide(stored.id, { status: 'approved', at: 61_000 }, 61_000)).won).toBe(
      false,
    );
    expect(await store.decide(stored.id, { status: 'expired', at: 61_000 }, 61_000)).toMatchObject({
      won: true,
      record: { status: 'expired' },
    });
    expect(await store.decide('appr_missing', { status: 'denied', at: 1 }, 1)).toEqual({
      record: undefined,
      won: false,
    });
  });

  it('lists by status and conversation, oldest request first', async () => {
    const store = new RedisApprovalStore({ connection: connection(), keyPrefix: 'listing:' });
    const later = record({ requestedAt: 5_000, conversationId: 'run_2' });
    const earlier = record({ requestedAt: 4_000 });
    await store.create(later);
    await store.create(earlier);
    await store.decide(earlier.id, { status: 'denied', at: 4_500 }, 4_500);
    expect((await store.list()).map((r) => r.id)).toEqual([earlier.id, later.id]);
    expect((await store.list({ status: 'pending' })).map((r) => r.id)).toEqual([later.id]);
    expect((await store.list({ conversationId: 'run_1' })).map((r) => r.id)).toEqual([earlier.id]);
  });

  it('lets an approval requested on one instance be decided on another, and the call runs once', async () => {
    payments.length = 0;
    const clock = new VirtualClock();
    const [first, second, third] = await Promise.all([
      instance(clock),
      instance(clock),
      instance(clock),
    ]);
    const pending = (await first.execute(
      { id: 'call_1', name: 'pay_invoice', arguments: { invoiceId: 'inv_9' } },
      { conversationId: 'run_1' },
    )) as ToolFailure;
    const id = pending.approval?.id as string;

    const decided = await Promise.allSettled([
      second.resolveApproval(id, { approved: true, by: 'ana' }),
      third.resolveApproval(id, { approved: true, by: 'ben' }),
    ]);

    expect(decided.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(payments).toEqual(['inv_9']);
    expect(await first.pendingApprovals()).toEqual([]);
  });
});

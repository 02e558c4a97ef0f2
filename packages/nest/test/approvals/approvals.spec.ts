import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { NetworkError, type ToolCallContext, type ToolFailure } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { IsInt, IsString, Min } from 'class-validator';
import fc from 'fast-check';
import { Retryable, Tool, ToolArgs, ToolCall, ToolRegistrar } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

class PayInvoiceArgs {
  @IsString() invoiceId!: string;
  @IsInt() @Min(1) amount!: number;
  @IsString() note!: string;
}

/** What the payment upstream saw: one entry per payment actually made. */
const payments: {
  invoiceId: string;
  amount: number;
  callId: string;
  key?: string;
  by?: unknown;
}[] = [];

@Injectable()
class BillingTools {
  @Tool({
    name: 'pay_invoice',
    description: 'Pays an invoice.',
    needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000,
  })
  pay(@ToolArgs() args: PayInvoiceArgs, @ToolCall() call: ToolCallContext) {
    expect(args).toBeInstanceOf(PayInvoiceArgs);
    payments.push({
      ...args,
      callId: call.callId,
      key: call.idempotencyKey,
      by: call.metadata.user,
    });
    return { paid: args.invoiceId };
  }

  @Tool({ name: 'delete_account', description: 'Deletes an account.', needsApproval: true })
  deleteAccount() {
    payments.push({ invoiceId: 'account', amount: 0, callId: 'delete' });
    return 'deleted';
  }
}

let asked = 0;
let flaky = 0;

@Injectable()
class FlakyTools {
  @Tool({
    idempotent: true,
    name: 'refund',
    description: 'Refunds a payment.',
    needsApproval: () => {
      asked += 1;
      return false;
    },
  })
  @Retryable({ maxRetries: 2, backoff: { baseMs: 0, jitter: 'none' } })
  refund() {
    flaky += 1;
    if (flaky === 1) throw new NetworkError('The payment network dropped the connection.');
    return 'refunded';
  }
}

type App = Awaited<ReturnType<typeof createToolApp>>;
let app: App | undefined;

async function start(ttlMs?: number): Promise<App> {
  payments.length = 0;
  app = await createToolApp(
    [BillingTools, FlakyTools],
    ttlMs === undefined ? {} : { approvals: { ttlMs } },
  );
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

const big = (note = 'card token sk-live-abcdefghijklmnopqrstuvwx') =>
  JSON.stringify({ invoiceId: 'inv_9', amount: 1_200, note });

describe('a tool that needs approval', () => {
  it('does not run: the call ends approval_pending with the approval, and waits in the store', async () => {
    const { executor } = await start();
    const events: ToolEvent[] = [];
    executor.events$.subscribe((event) => events.push(event));

    const outcome = (await executor.execute(
      { id: 'call_1', name: 'pay_invoice', arguments: big() },
      { conversationId: 'run_1' },
    )) as ToolFailure;

    expect(payments).toEqual([]);
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'approval_pending',
      recoverable: false,
      approval: {
        id: expect.stringMatching(/^appr_/),
        idempotencyKey: 'run_1:call_1',
        args: { invoiceId: 'inv_9', amount: 1_200 },
      },
    });
    expect(JSON.stringify(outcome)).not.toContain('sk-live-abcdefghijklmnopqrstuvwx');
    expect(outcome.error).toContain(outcome.approval?.id);
    expect(events.map((event) => event.type)).toEqual([
      'call.started',
      'approval.requested',
      'call.failed',
    ]);
    const [pending] = await executor.pendingApprovals();
    expect(pending).toMatchObject({
      id: outcome.approval?.id,
      tool: 'pay_invoice',
      callId: 'call_1',
      conversationId: 'run_1',
      args: { note: 'card token sk-live-abcdefghijklmnopqrstuvwx' },
      status: 'pending',
    });
  });

  it('validates the arguments first: invalid ones fail invalid_input and ask nobody', async () => {
    const { executor } = await start();
    const outcome = await executor.execute({
      id: 'call_1',
      name: 'pay_invoice',
      arguments: { invoiceId: 'inv_9', amount: -5, note: 'x' },
    });
    expect(outcome).toMatchObject({ errorType: 'invalid_input' });
    expect(await executor.pendingApprovals()).toEqual([]);
  });

  it('runs at once when its needsApproval function says no, with the validated arguments', async () => {
    const { executor } = await start();
    const outcome = await executor.execute({
      id: 'call_2',
      name: 'pay_invoice',
      arguments: { invoiceId: 'inv_1', amount: 20, note: 'small' },
    });
    expect(outcome).toMatchObject({ success: true, output: { paid: 'inv_1' } });
    expect(payments).toHaveLength(1);
  });

  it('asks once per call, not once per attempt', async () => {
    asked = 0;
    flaky = 0;
    const { executor, clock } = await start();
    const outcome = await clock.runUntilSettled(
      executor.execute({ id: 'call_3', name: 'refund', arguments: {} }),
    );
    expect(outcome).toMatchObject({ success: true });
    expect({ asked, runs: flaky }).toEqual({ asked: 1, runs: 2 });
  });

  it('skips the gate when the caller says a person approved the call already', async () => {
    const { executor } = await start();
    const outcome = await executor.execute(
      { id: 'call_4', name: 'delete_account', arguments: {} },
      { approved: { by: 'ana' } },
    );
    expect(outcome).toMatchObject({ success: true, output: 'deleted' });
  });
});

describe('resolveApproval', () => {
  it('runs the approved call once through the pipeline, with its call id, key and metadata', async () => {
    const { executor } = await start();
    const events: ToolEvent[] = [];
    executor.events$.subscribe((event) => events.push(event));
    const pending = (await executor.execute(
      { id: 'call_1', name: 'pay_invoice', arguments: big('ok') },
      { conversationId: 'run_1', metadata: { user: 'u_7' } },
    )) as ToolFailure;
    const id = pending.approval?.id as string;

    const outcome = await executor.resolveApproval(id, { approved: true, by: 'ana' });

    expect(outcome).toMatchObject({ success: true, callId: 'call_1', output: { paid: 'inv_9' } });
    expect(payments).toEqual([
      {
        invoiceId: 'inv_9',
        amount: 1_200,
        note: 'ok',
        callId: 'call_1',
        key: 'run_1:call_1',
        by: 'u_7',
      },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'call.started',
      'approval.requested',
      'call.failed',
      'approval.approved',
      'call.started',
      'call.succeeded',
    ]);
    await expect(executor.resolveApproval(id, { approved: true })).rejects.toThrow(
      /was approved already by ana/,
    );
    expect(await executor.pendingApprovals()).toEqual([]);
  });

  it('makes the call exactly once however many decisions race', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), async (votes) => {
        const { executor } = await start();
        const pending = (await executor.execute({
          id: 'call_1',
          name: 'pay_invoice',
          arguments: big('race'),
        })) as ToolFailure;
        const settled = await Promise.allSettled(
          votes.map((approved) =>
            executor.resolveApproval(pending.approval?.id as string, { approved }),
          ),
        );
        const decided = settled.filter((result) => result.status === 'fulfilled');
        expect(decided).toHaveLength(1);
        expect(settled.filter((result) => result.status === 'rejected')).toHaveLength(
          votes.length - 1,
        );
        const won = (decided[0] as PromiseFulfilledResult<{ success: boolean }>).value;
        expect(payments).toHaveLength(won.success ? 1 : 0);
        await app?.close();
        app = undefined;
      }),
      { numRuns: 15 },
    );
  });

  it('ends a denial in a failure the model reads, not retryable, and runs nothing', async () => {
    const { executor } = await start();
    const events: ToolEvent[] = [];
    executor.events$.subscribe((event) => events.push(event));
    const pending = (await executor.execute({
      id: 'call_1',
      name: 'pay_invoice',
      arguments: big('no'),
    })) as ToolFailure;

    const outcome = await executor.resolveApproval(pending.approval?.id as string, {
      approved: false,
      reason: 'the invoice is a duplicate',
      by: 'ana',
    });

    expect(outcome).toMatchObject({
      success: false,
      callId: 'call_1',
      errorType: 'approval_denied',
      recoverable: false,
      error:
        'A person declined: the invoice is a duplicate. Do not call it again with these arguments.',
    });
    expect(payments).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'approval.denied',
      by: 'ana',
      reason: 'the invoice is a duplicate',
    });
  });

  it('refuses a decision after expiry, and expiry ends the call in its own failure', async () => {
    const { executor, clock } = await start(60_000);
    const events: ToolEvent[] = [];
    executor.events$.subscribe((event) => events.push(event));
    const first = (await executor.execute({
      id: 'call_1',
      name: 'pay_invoice',
      arguments: big('late'),
    })) as ToolFailure;
    await executor.execute({ id: 'call_2', name: 'delete_account', arguments: {} });
    await clock.advanceBy(60_000);

    await expect(
      executor.resolveApproval(first.approval?.id as string, { approved: true }),
    ).rejects.toMatchObject({ name: 'ApprovalNotPendingError', reason: 'expired' });
    const expired = await executor.expireApprovals();

    expect(expired.map(({ outcome }) => outcome)).toEqual([
      expect.objectContaining({
        callId: 'call_2',
        errorType: 'approval_expired',
        error: 'Nobody approved the call within 60s, so it did not run.',
      }),
    ]);
    expect(events.filter((event) => event.type === 'approval.expired')).toHaveLength(2);
    expect(payments).toEqual([]);
  });

  it('refuses an unknown id with a clear error', async () => {
    const { executor } = await start();
    await expect(executor.resolveApproval('appr_nope', { approved: true })).rejects.toThrow(
      'No approval has the id appr_nope.',
    );
  });
});

describe('a registered tool', () => {
  it('needs approval like a decorated one', async () => {
    const { executor, moduleRef } = await start();
    moduleRef.get(ToolRegistrar).register({
      name: 'wire_money',
      description: 'Wires money.',
      needsApproval: true,
      inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
      handler: (args) => ({ wired: args }),
    });
    const pending = (await executor.execute({
      id: 'call_1',
      name: 'wire_money',
      arguments: { to: 'bob' },
    })) as ToolFailure;
    expect(pending.errorType).toBe('approval_pending');
    const outcome = await executor.resolveApproval(pending.approval?.id as string, {
      approved: true,
    });
    expect(outcome).toMatchObject({ success: true, output: { wired: { to: 'bob' } } });
  });
});

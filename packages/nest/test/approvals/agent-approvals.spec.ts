import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { AssistantMessage, ChatModel, ChatModelRequest } from '@toolshield/core/agent';
import { IsInt, IsString, Min } from 'class-validator';
import { AgentRunnerFactory, Tool, ToolArgs } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

class PayInvoiceArgs {
  @IsString() invoiceId!: string;
  @IsInt() @Min(1) amount!: number;
}

@Injectable()
class BillingTools {
  readonly paid: string[] = [];

  @Tool({
    name: 'pay_invoice',
    description: 'Pays an invoice.',
    needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000,
  })
  pay(@ToolArgs() args: PayInvoiceArgs) {
    this.paid.push(args.invoiceId);
    return { paid: args.invoiceId };
  }

  @Tool({ name: 'list_invoices', description: 'Lists invoices.', idempotent: true })
  list() {
    return ['inv_9'];
  }
}

const payBig: AssistantMessage = {
  role: 'assistant',
  content: '',
  toolCalls: [
    { id: 'c1', name: 'list_invoices', arguments: '{}' },
    { id: 'c2', name: 'pay_invoice', arguments: '{"invoiceId":"inv_9","amount":1200}' },
  ],
};

/** A model that pays once, then answers with what it read for the payment. */
function payingModel() {
  const requests: ChatModelRequest[] = [];
  const model: ChatModel = async (request) => {
    requests.push(request);
    if (requests.length === 1) return payBig;
    const read = request.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c2');
    return { role: 'assistant', content: `Read: ${read?.content ?? 'nothing'}` };
  };
  return { model, requests };
}

describe('AgentRunnerFactory with a tool that needs approval', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => app.close());

  async function waitingRun(ttlMs?: number) {
    app = await createToolApp([BillingTools], ttlMs === undefined ? {} : { approvals: { ttlMs } });
    const { model, requests } = payingModel();
    const runner = app.moduleRef.get(AgentRunnerFactory).create({ model });
    const paused = await runner.run({ conversationId: 'run_1', input: 'Pay invoice 9.' });
    return { runner, requests, paused, tools: app.moduleRef.get(BillingTools) };
  }

  it('waits without paying, then pays once on approval and the model reads the payment', async () => {
    const { runner, paused, tools } = await waitingRun();
    expect(paused).toMatchObject({
      status: 'awaiting_approval',
      awaitingApproval: [{ callId: 'c2', tool: 'pay_invoice' }],
    });
    expect(tools.paid).toEqual([]);
    const id = paused.awaitingApproval?.[0]?.approval.id as string;

    const outcome = await app.executor.resolveApproval(id, { approved: true, by: 'ana' });
    const done = await runner.run({ conversationId: 'run_1', approvalOutcomes: [outcome] });

    expect(done).toMatchObject({ status: 'completed', finalAnswer: 'Read: {"paid":"inv_9"}' });
    expect(tools.paid).toEqual(['inv_9']);
  });

  it('reads a denial as its own text', async () => {
    const { runner, paused, tools } = await waitingRun();
    const id = paused.awaitingApproval?.[0]?.approval.id as string;

    const outcome = await app.executor.resolveApproval(id, {
      approved: false,
      reason: 'the invoice was paid last week',
    });
    const done = await runner.run({ conversationId: 'run_1', approvalOutcomes: [outcome] });

    expect(done.finalAnswer).toContain(
      'A person declined: the invoice was paid last week. Do not call it again with these arguments.',
    );
    expect(tools.paid).toEqual([]);
  });

  it('reads an expiry as its own text', async () => {
    const { runner, tools } = await waitingRun(30 * 60_000);
    await app.clock.advanceBy(30 * 60_000);

    const [expired] = await app.executor.expireApprovals();
    const done = await runner.run({
      conversationId: 'run_1',
      approvalOutcomes: expired ? [expired.outcome] : [],
    });

    expect(done.finalAnswer).toContain(
      'Nobody approved the call within 30 min, so it did not run.',
    );
    expect(tools.paid).toEqual([]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { usePaymentApp } from '@toolshield/adapter-testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { ScriptedChatModel, toolMessagesSentAt } from '../test/scripted-chat-model.js';
import { toLangChainTools } from './to-langchain-tools.js';
import { toolshieldInterruptOn } from './toolshield-interrupt-on.js';

const paymentApp = usePaymentApp();
const thread = { configurable: { thread_id: 'thread_1' } };
const pay = (amount: number) => [
  { id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_9', amount } },
];

async function paymentAgent(script: ConstructorParameters<typeof ScriptedChatModel>[0]) {
  const payment = await paymentApp();
  const model = new ScriptedChatModel(script);
  const tools = toLangChainTools(payment.catalog);
  const agent = createAgent({
    model,
    tools,
    checkpointer: new MemorySaver(),
    middleware: [humanInTheLoopMiddleware({ interruptOn: toolshieldInterruptOn(tools) })],
  });
  const ask = () =>
    agent.invoke({ messages: [{ role: 'user', content: 'Pay invoice 9.' }] }, thread);
  return { ...payment, model, agent, ask };
}

describe('toolshieldInterruptOn: the human-in-the-loop middleware on toolshield tools', () => {
  it('interrupts on a call that needs approval, and resumed with Command makes it once', async () => {
    const { agent, ask, tools, model } = await paymentAgent([pay(1_200), 'Invoice 9 is paid.']);

    const paused = await ask();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({
      actionRequests: [{ name: 'pay_invoice', args: { invoiceId: 'inv_9', amount: 1_200 } }],
    });
    expect(tools.payments).toEqual([]);

    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: 'approve' }] } }),
      thread,
    );

    expect(done.messages.at(-1)?.content).toBe('Invoice 9 is paid.');
    expect(tools.payments).toEqual([
      { invoiceId: 'inv_9', amount: 1_200, callId: 'call_1', idempotencyKey: 'thread_1:call_1' },
    ]);
    expect(toolMessagesSentAt(model, 1)['call_1']?.content).toBe('{"paid":"inv_9","amount":1200}');
  });

  it('pays nothing when a person rejects, and the model reads why', async () => {
    const { agent, ask, tools, model } = await paymentAgent([pay(1_200), 'I did not pay it.']);
    await ask();

    await agent.invoke(
      new Command({
        resume: { decisions: [{ type: 'reject', message: 'A person declined: duplicate.' }] },
      }),
      thread,
    );

    expect(tools.payments).toEqual([]);
    expect(toolMessagesSentAt(model, 1)['call_1']?.content).toBe('A person declined: duplicate.');
  });

  it('does not interrupt a call its policy waives', async () => {
    const { ask, tools } = await paymentAgent([pay(20), 'Paid.']);
    const done = await ask();
    expect(done.__interrupt__).toBeUndefined();
    expect(tools.payments).toHaveLength(1);
  });

  it('leaves toolshield’s own gate in place for a call no person approved', async () => {
    const payment = await paymentApp();
    const [payInvoice] = toLangChainTools(payment.catalog, { only: ['pay_invoice'] });
    if (payInvoice === undefined) throw new Error('pay_invoice is missing');
    const message = await payInvoice.invoke({
      type: 'tool_call',
      id: 'call_7',
      name: 'pay_invoice',
      args: { invoiceId: 'inv_9', amount: 1_200 },
    });
    expect(payment.tools.payments).toEqual([]);
    expect(JSON.stringify(message)).toContain('approval_pending');
  });
});

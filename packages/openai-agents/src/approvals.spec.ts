import { describe, expect, it } from '@jest/globals';
import { usePaymentApp } from '@toolshield/adapter-testing';
import { Agent, RunState, Runner } from '@openai/agents';
import { scriptedModel, toolOutputsSentAt } from '../test/scripted-run.js';
import { toAgentsTools } from './to-agents-tools.js';
import { toolshieldRunConfig } from './toolshield-run-config.js';

const paymentApp = usePaymentApp();

async function paymentAgent(steps: Parameters<typeof scriptedModel>[0]) {
  const payment = await paymentApp();
  const model = scriptedModel(steps);
  const tools = toAgentsTools(payment.catalog, {
    conversationId: () => 'conv_1',
  });
  const agent = new Agent({ name: 'Billing agent', instructions: 'Pay.', model, tools });
  const runner = new Runner({ tracingDisabled: true, ...toolshieldRunConfig(tools) });
  return { ...payment, model, agent, runner };
}

const bigPayment = [
  { id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_9', amount: 1_200 } },
];

describe('toAgentsTools: needsApproval in the Agents SDK Runner', () => {
  it('interrupts the run, and a run resumed from its RunState string makes the approved call once', async () => {
    const { agent, runner, tools, model } = await paymentAgent([bigPayment, 'Invoice 9 is paid.']);

    const first = await runner.run(agent, 'Pay invoice 9.');
    expect(first.interruptions.map((item) => item.name)).toEqual(['pay_invoice']);
    expect(tools.payments).toEqual([]);
    const saved = first.state.toString();

    const state = await RunState.fromString(agent, saved);
    const [interruption] = state.getInterruptions();
    if (interruption === undefined) throw new Error('no interruption');
    state.approve(interruption);
    const resumed = await runner.run(agent, state);

    expect(resumed.finalOutput).toBe('Invoice 9 is paid.');
    expect(tools.payments).toEqual([
      { invoiceId: 'inv_9', amount: 1_200, callId: 'call_1', idempotencyKey: 'conv_1:call_1' },
    ]);
    expect(toolOutputsSentAt(model, 1)['call_1']).toBe('{"paid":"inv_9","amount":1200}');
  });

  it('tells the model a person declined, in toolshield’s words, and pays nothing', async () => {
    const { agent, runner, tools, model } = await paymentAgent([bigPayment, 'I did not pay it.']);
    const first = await runner.run(agent, 'Pay invoice 9.');

    const [interruption] = first.interruptions;
    if (interruption === undefined) throw new Error('no interruption');
    first.state.reject(interruption);
    const resumed = await runner.run(agent, first.state);

    expect(resumed.finalOutput).toBe('I did not pay it.');
    expect(tools.payments).toEqual([]);
    expect(toolOutputsSentAt(model, 1)['call_1']).toContain(
      'A person declined: no reason given. Do not call it again with these arguments.',
    );
  });

  it('does not interrupt a call its policy waives', async () => {
    const { agent, runner, tools } = await paymentAgent([
      [{ id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_1', amount: 20 } }],
      'Paid.',
    ]);
    const result = await runner.run(agent, 'Pay invoice 1.');
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('Paid.');
    expect(tools.payments).toHaveLength(1);
  });
});

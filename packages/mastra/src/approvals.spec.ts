import { describe, expect, it } from '@jest/globals';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { InMemoryStore } from '@mastra/core/storage';
import { createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';
import { usePaymentApp } from '@toolshield/adapter-testing';
import type { ToolCatalog, ToolOutcome } from '@toolshield/core';
import {
  asAgentModel,
  scriptedModel,
  toolResultsSentAt,
  type ScriptedCall,
} from '../test/scripted-model.js';
import { toMastraTools } from './to-mastra-tools.js';
import { toolshieldStep } from './toolshield-step.js';

const paymentApp = usePaymentApp();

/** An agent over the payment tools, registered with Mastra and in-memory storage (a paused run is kept there). */
function paymentAgent(catalog: ToolCatalog, steps: readonly (readonly ScriptedCall[] | string)[]) {
  const model = scriptedModel(steps);
  const agent = new Agent({
    id: 'payer',
    name: 'Payer',
    instructions: 'Pay invoices.',
    model: asAgentModel(model),
    tools: toMastraTools(catalog, { conversationId: 'conv_1' }),
  });
  new Mastra({ agents: { payer: agent }, storage: new InMemoryStore(), logger: false });
  return { agent, model };
}

const payNine: ScriptedCall = {
  id: 'call_1',
  name: 'pay_invoice',
  args: { invoiceId: 'inv_9', amount: 1_200 },
};

describe("toMastraTools: needsApproval becomes Mastra's requireApproval", () => {
  it('pauses the run for approval, then runs the call once when a person approves', async () => {
    const { catalog, tools } = await paymentApp();
    const { agent, model } = paymentAgent(catalog, [[payNine], 'Invoice 9 is paid.']);

    const paused = await agent.generate('Pay invoice 9.', { maxSteps: 5 });
    expect(paused.finishReason).toBe('suspended');
    expect(paused.suspendPayload).toMatchObject({ toolCallId: 'call_1', toolName: 'pay_invoice' });
    expect(tools.payments).toEqual([]);

    const done = await agent.approveToolCallGenerate({
      runId: paused.runId ?? '',
      toolCallId: 'call_1',
    });

    expect(done.text).toBe('Invoice 9 is paid.');
    expect(tools.payments).toEqual([
      { invoiceId: 'inv_9', amount: 1_200, callId: 'call_1', idempotencyKey: 'conv_1:call_1' },
    ]);
    expect(toolResultsSentAt(model, 1)['call_1']).toEqual({
      type: 'text',
      value: '{"paid":"inv_9","amount":1200}',
    });
  });

  it('runs nothing when a person declines', async () => {
    const { catalog, tools } = await paymentApp();
    const { agent } = paymentAgent(catalog, [[payNine], 'I did not pay it.']);
    const paused = await agent.generate('Pay invoice 9.', { maxSteps: 5 });

    const done = await agent.declineToolCallGenerate({
      runId: paused.runId ?? '',
      toolCallId: 'call_1',
      reason: 'duplicate invoice',
    });

    expect(done.text).toBe('I did not pay it.');
    expect(tools.payments).toEqual([]);
  });

  it('asks nobody for a call its policy waives', async () => {
    const { catalog, tools } = await paymentApp();
    const { agent } = paymentAgent(catalog, [
      [{ id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_1', amount: 20 } }],
      'Paid.',
    ]);
    const done = await agent.generate('Pay invoice 1.', { maxSteps: 5 });
    expect(done.text).toBe('Paid.');
    expect(tools.payments).toHaveLength(1);
    const outcome = done.toolResults[0]?.payload.result as ToolOutcome;
    expect(outcome.success).toBe(true);
  });

  it("leaves a call outside an agent's loop (no Mastra pause) to toolshield's own gate", async () => {
    const { catalog, tools } = await paymentApp();
    const pay = toMastraTools(catalog)['pay_invoice'];
    const outcome = await pay?.execute?.({ invoiceId: 'inv_9', amount: 1_200 }, {} as never);
    expect(outcome).toMatchObject({ success: false, errorType: 'approval_pending' });
    expect(tools.payments).toEqual([]);
  });

  it('fails a workflow step at once with the approval_pending failure (Mastra does not pause a step)', async () => {
    const { catalog, clock, executor, tools } = await paymentApp();
    const workflow = createWorkflow({
      id: 'pay',
      inputSchema: z.object({ invoiceId: z.string(), amount: z.number() }),
      outputSchema: z.unknown(),
      retryConfig: { attempts: 3, delay: 0 },
    })
      .then(toolshieldStep(catalog, 'pay_invoice'))
      .commit();
    workflow.__setLogger(noopLogger);
    const run = await workflow.createRun();
    const result = await clock.runUntilSettled(
      run.start({ inputData: { invoiceId: 'inv_9', amount: 1_200 } }),
    );
    expect(result.status).toBe('failed');
    expect(tools.payments).toEqual([]);
    expect(await executor.pendingApprovals()).toHaveLength(1); // asked once, not once per step attempt
  });
});

import { describe, expect, it } from '@jest/globals';
import { usePaymentApp } from '@toolshield/adapter-testing';
import type { ToolOutcome } from '@toolshield/core';
import { generateText, isStepCount, jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import { scriptedModel, toolResultsSentAt } from '@toolshield/adapter-testing/ai-model';
import { shieldAiSdkTools } from './shield-ai-sdk-tools.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

const paymentApp = usePaymentApp();
const prompt: ModelMessage[] = [{ role: 'user', content: 'Pay invoice 9.' }];

/** The AI SDK's loop until it stops: answered, or waiting for an approval. */
function loop(model: ReturnType<typeof scriptedModel>, tools: ToolSet, messages: ModelMessage[]) {
  return generateText({ model, tools, stopWhen: isStepCount(5), messages });
}

/** The conversation after a step that asked for approval, with a person's answer appended. */
function answered(
  messages: ModelMessage[],
  result: Awaited<ReturnType<typeof loop>>,
  approved: boolean,
  reason?: string,
): ModelMessage[] {
  const request = result.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('no approval was requested');
  return [
    ...messages,
    ...result.response.messages,
    {
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: request.approvalId, approved, reason },
      ],
    },
  ];
}

describe('toAiSdkTools: toolshield tools carry needsApproval into the AI SDK loop', () => {
  it('pauses generateText for approval, then runs the call once when a person approves', async () => {
    const { catalog, tools } = await paymentApp();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_9', amount: 1_200 } }],
      'Invoice 9 is paid.',
    ]);
    const aiTools = toAiSdkTools(catalog, { conversationId: 'conv_1' });

    const paused = await loop(model, aiTools, prompt);
    expect(paused.content.map((part) => part.type)).toContain('tool-approval-request');
    expect(tools.payments).toEqual([]);

    const done = await loop(model, aiTools, answered(prompt, paused, true));

    expect(done.text).toBe('Invoice 9 is paid.');
    expect(tools.payments).toEqual([
      { invoiceId: 'inv_9', amount: 1_200, callId: 'call_1', idempotencyKey: 'conv_1:call_1' },
    ]);
    expect(toolResultsSentAt(model, 1)['call_1']).toEqual({
      type: 'text',
      value: '{"paid":"inv_9","amount":1200}',
    });
  });

  it('runs nothing when a person declines, and the model reads the denial', async () => {
    const { catalog, tools } = await paymentApp();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_9', amount: 1_200 } }],
      'I did not pay it.',
    ]);
    const aiTools = toAiSdkTools(catalog);
    const paused = await loop(model, aiTools, prompt);

    const done = await loop(model, aiTools, answered(prompt, paused, false, 'duplicate invoice'));

    expect(done.text).toBe('I did not pay it.');
    expect(tools.payments).toEqual([]);
    expect(toolResultsSentAt(model, 1)['call_1']).toMatchObject({
      type: 'execution-denied',
      reason: 'duplicate invoice',
    });
  });

  it('asks nobody for a call its policy waives', async () => {
    const { catalog, tools } = await paymentApp();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'pay_invoice', args: { invoiceId: 'inv_1', amount: 20 } }],
      'Paid.',
    ]);
    const done = await loop(model, toAiSdkTools(catalog), prompt);
    expect(done.text).toBe('Paid.');
    expect(tools.payments).toHaveLength(1);
    const outcome = done.steps[0]?.toolResults[0]?.output as ToolOutcome;
    expect(outcome.success).toBe(true);
  });
});

describe('shieldAiSdkTools keeps an AI SDK tool’s needsApproval', () => {
  it('pauses for approval and runs the approved call once behind the policies', async () => {
    const paid: unknown[] = [];
    const shielded = shieldAiSdkTools({
      pay: tool({
        description: 'Pays an invoice.',
        inputSchema: jsonSchema<{ invoiceId: string }>({
          type: 'object',
          properties: { invoiceId: { type: 'string' } },
        }),
        needsApproval: true,
        execute: async ({ invoiceId }) => {
          paid.push(invoiceId);
          return { paid: invoiceId };
        },
      }),
    });
    expect(shielded.pay.needsApproval).toBe(true);
    const model = scriptedModel([
      [{ id: 'call_1', name: 'pay', args: { invoiceId: 'inv_9' } }],
      'Paid.',
    ]);

    const paused = await loop(model, shielded, prompt);
    expect(paid).toEqual([]);
    const done = await loop(model, shielded, answered(prompt, paused, true));

    expect(done.text).toBe('Paid.');
    expect(paid).toEqual(['inv_9']);
  });
});

import { describe, expect, it } from '@jest/globals';
import { type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { scriptedModel } from '@toolshield/adapter-testing/ai-model';
import { shieldAiSdkTools, type ShieldAiSdkToolsOptions } from './shield-ai-sdk-tools.js';

/** A booking whose connection drops after the request went out: its failure carries the key. */
const book = tool({
  description: 'Books a flight; charges the card.',
  inputSchema: jsonSchema<{ flight: string }>({
    type: 'object',
    properties: { flight: { type: 'string' } },
    required: ['flight'],
  }),
  execute: async (): Promise<string> => {
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  },
});

/** One conversation's turn: its model calls the booking as `call_3`; the key its failure carries. */
async function turn(options: Omit<ShieldAiSdkToolsOptions, 'clock'>) {
  const clock = new VirtualClock();
  const result = await clock.runUntilSettled(
    generateText({
      model: scriptedModel([
        [{ id: 'call_3', name: 'book', args: { flight: 'LH 123' } }],
        'Checking.',
      ]),
      tools: shieldAiSdkTools({ book }, { ...options, clock }),
      stopWhen: isStepCount(3),
      prompt: 'Book LH 123.',
    }),
  );
  return (result.steps[0]?.toolResults[0]?.output as ToolFailure).metadata?.['idempotencyKey'];
}

describe('shieldAiSdkTools conversationId: idempotency keys scoped by conversation', () => {
  it('gives two conversations whose model reuses call_3 different keys, and the same conversation the same key', async () => {
    const keys = [
      await turn({ conversationId: 'conv-a' }),
      await turn({ conversationId: ({ toolCallId }) => `conv-b-${toolCallId}` }),
      await turn({ conversationId: 'conv-a' }), // the same call after a resume
    ];
    expect(keys).toEqual(['conv-a:call_3', 'conv-b-call_3:call_3', 'conv-a:call_3']);
  });

  it('gives each call a key of its own when no conversation is known', async () => {
    const [first, second] = [await turn({}), await turn({})];
    expect(first).toMatch(/:call_3$/);
    expect(first).not.toBe(second);
  });
});

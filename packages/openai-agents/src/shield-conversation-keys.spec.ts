import { describe, expect, it } from '@jest/globals';
import { type ToolOutcome } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { Agent, Runner, tool } from '@openai/agents';
import { scriptedModel } from '../test/scripted-run.js';
import { shieldAgentsTool, type AgentsShieldOptions } from './shield-agents-tool.js';
import type { AgentsToolParameters } from './to-agents-tools.js';

const flightParameters: AgentsToolParameters = {
  type: 'object',
  properties: { flight: { type: 'string' } },
  required: ['flight'],
  additionalProperties: true,
};

/** A booking whose connection drops after the request went out: its failure carries the key. */
const book = tool({
  name: 'book',
  description: 'Books a flight; charges the card.',
  parameters: flightParameters,
  strict: false,
  errorFunction: null,
  execute: async (): Promise<string> => {
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  },
});

interface ChatContext {
  readonly threadId: string;
}

/** One conversation's turn in the SDK's run loop: its model calls the booking as `call_3`. */
async function turn(threadId: string, options: Pick<AgentsShieldOptions, 'conversationId'>) {
  const clock = new VirtualClock();
  const outcomes: ToolOutcome[] = [];
  const model = scriptedModel([
    [{ id: 'call_3', name: 'book', args: { flight: 'LH 123' } }],
    'Checking.',
  ]);
  const shielded = shieldAgentsTool(book, {
    ...options,
    clock,
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  const agent = new Agent({
    name: 'Travel agent',
    instructions: 'Help.',
    model,
    tools: [shielded],
  });
  const context: ChatContext = { threadId };
  await clock.runUntilSettled(
    new Runner({ tracingDisabled: true }).run(agent, 'Book LH 123.', { context }),
  );
  return outcomes[0]?.metadata?.['idempotencyKey'];
}

const byThread: Pick<AgentsShieldOptions, 'conversationId'> = {
  conversationId: (runContext) => (runContext.context as ChatContext).threadId,
};

describe('shieldAgentsTool conversationId: idempotency keys scoped by conversation', () => {
  it('gives two conversations whose model reuses call_3 different keys, and the same conversation the same key', async () => {
    const keys = [
      await turn('thread-a', byThread),
      await turn('thread-b', byThread),
      await turn('thread-a', byThread), // the same call after a resume
    ];
    expect(keys).toEqual(['thread-a:call_3', 'thread-b:call_3', 'thread-a:call_3']);
  });

  it('gives each call a key of its own when no conversation is known', async () => {
    const [first, second] = [await turn('thread-a', {}), await turn('thread-a', {})];
    expect(first).toMatch(/:call_3$/);
    expect(first).not.toBe(second);
  });
});

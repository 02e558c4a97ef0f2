import { describe, expect, it } from '@jest/globals';
import { type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { ScriptedChatModel } from '../test/scripted-chat-model.js';
import { shieldLangChainTool, type LangChainShieldOptions } from './shield-langchain-tool.js';

/** A booking whose connection drops after the request went out: its failure carries the key. */
const book = tool(
  (): Promise<string> => {
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  },
  { name: 'book', description: 'Books a flight.', schema: z.object({ flight: z.string() }) },
);

/** One turn of a LangGraph thread: its model calls the booking as `call_3`; the key its failure carries. */
async function turn(threadId: string, options: LangChainShieldOptions = {}) {
  const clock = new VirtualClock();
  const model = new ScriptedChatModel([
    [{ id: 'call_3', name: 'book', args: { flight: 'LH 123' } }],
    'Checking.',
  ]);
  const agent = createAgent({
    model,
    tools: [shieldLangChainTool(book, { ...options, clock })],
    checkpointer: new MemorySaver(),
  });
  const result = await clock.runUntilSettled(
    agent.invoke(
      { messages: [new HumanMessage('Book LH 123.')] },
      { configurable: { thread_id: threadId } },
    ),
  );
  const failure = result.messages.find((message) => message instanceof ToolMessage)?.artifact as
    ToolFailure | undefined;
  return failure?.metadata?.['idempotencyKey'];
}

describe('shieldLangChainTool: idempotency keys scoped by the LangGraph thread', () => {
  it('gives two threads whose model reuses call_3 different keys, and the same thread the same key', async () => {
    const keys = [await turn('thread-a'), await turn('thread-b'), await turn('thread-a')];
    expect(keys).toEqual(['thread-a:call_3', 'thread-b:call_3', 'thread-a:call_3']);
  });

  it('takes the conversation from the conversationId option instead of the thread', async () => {
    const key = await turn('thread-a', {
      conversationId: (config) => `tenant-1/${String(config?.configurable?.['thread_id'])}`,
    });
    expect(key).toBe('tenant-1/thread-a:call_3');
  });
});

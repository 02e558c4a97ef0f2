import { describe, expect, it } from '@jest/globals';
import type { ToolCallContext } from '../results/tool-call.js';
import { shieldTool } from './shield-tool.js';

/** A tool that records the idempotency key of each call it gets. */
function keyRecorder() {
  const keys: (string | undefined)[] = [];
  const book = shieldTool(
    (_args: unknown, call: ToolCallContext) => keys.push(call.idempotencyKey),
    {
      name: 'book_flight',
      breaker: false,
      timeoutMs: false,
    },
  );
  return { book, keys };
}

describe('shieldTool: idempotency keys scoped by conversation', () => {
  it('gives two calls with the same call id and no conversation different keys', async () => {
    const { book, keys } = keyRecorder();
    await book({}, { callId: 'call_3' });
    await book({}, { callId: 'call_3' });
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}:call_3$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}:call_3$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('gives the same conversation and call id the same key, and another conversation another', async () => {
    const { book, keys } = keyRecorder();
    await book({}, { callId: 'call_3', conversationId: 'conv-a' });
    await book({}, { callId: 'call_3', conversationId: 'conv-b' });
    await book({}, { callId: 'call_3', conversationId: 'conv-a' }); // the same call after a resume
    expect(keys).toEqual(['conv-a:call_3', 'conv-b:call_3', 'conv-a:call_3']);
  });

  it("keeps the caller's own key over the default", async () => {
    const { book, keys } = keyRecorder();
    await book({}, { callId: 'call_3', conversationId: 'conv-a', idempotencyKey: 'order-42' });
    expect(keys).toEqual(['order-42']);
  });
});

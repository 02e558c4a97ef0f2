import { describe, expect, it } from '@jest/globals';
import { NetworkError, type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { scriptedModel, toolResultsSentAt } from '@toolshield/adapter-testing/ai-model';
import { shieldAiSdkTools } from './shield-ai-sdk-tools.js';

const flightInput = jsonSchema<{ flight: string }>({
  type: 'object',
  properties: { flight: { type: 'string' } },
  required: ['flight'],
});

/** A booking API that takes the booking when the request arrives, then misbehaves. */
function bookingTools() {
  const bookings: string[] = [];
  const book = (misbehave: () => Promise<never>) =>
    tool({
      description: 'Books a flight; charges the card.',
      inputSchema: flightInput,
      execute: async ({ flight }): Promise<string> => {
        bookings.push(flight);
        return misbehave();
      },
    });
  const tools = {
    bookHanging: book(() => new Promise<never>(() => undefined)),
    bookReset: book(() =>
      Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    ),
    charge: tool({
      description: 'Charges a card.',
      inputSchema: flightInput,
      execute: async (): Promise<string> => {
        // Never sent (refused), and not to be retried, the tool says.
        throw new NetworkError('The card network refused the connection.', {
          retryable: false,
          metadata: { code: 'ECONNREFUSED' },
        });
      },
    }),
  };
  return { tools, bookings };
}

/** One step calling `name`, then a text answer; what the model read of the call in between. */
async function runOnce(name: string) {
  const clock = new VirtualClock();
  const { tools, bookings } = bookingTools();
  const model = scriptedModel([[{ id: 'call_1', name, args: { flight: 'LH 123' } }], 'Checking.']);
  const result = await clock.runUntilSettled(
    generateText({
      model,
      tools: shieldAiSdkTools(tools, { clock, timeoutMs: 200 }),
      stopWhen: isStepCount(3),
      prompt: 'Book LH 123.',
    }),
  );
  return {
    bookings,
    outcome: result.steps[0]?.toolResults[0]?.output as ToolFailure,
    read: toolResultsSentAt(model, 1)['call_1'],
  };
}

describe('shieldAiSdkTools: a tool not marked idempotent that failed after its request left', () => {
  it('timed out after the booking was taken: the model reads that it may have happened, not to retry', async () => {
    const { bookings, outcome, read } = await runOnce('bookHanging');
    expect(bookings).toEqual(['LH 123']);
    expect(outcome).toMatchObject({
      errorType: 'timeout',
      effect: 'unknown',
      recoverable: false,
      metadata: { idempotencyKey: expect.stringMatching(/:call_1$/) },
    });
    expect(read).toEqual({
      type: 'error-text',
      value: [
        'Tool bookHanging failed: timeout, attempt 1/1.',
        'Timed out after 200 ms.',
        'It may have taken effect.',
        'Next: Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ].join('\n'),
    });
  });

  it('lost its connection after sending (ECONNRESET): the same', async () => {
    const { outcome, read } = await runOnce('bookReset');
    expect(outcome).toMatchObject({ errorType: 'network', effect: 'unknown', recoverable: false });
    expect(read?.value).toContain('socket hang up.\nIt may have taken effect.');
    expect(read?.value).not.toMatch(/\bRetry/);
  });

  it("threw NetworkError with retryable: false: the tool's word is what the model reads", async () => {
    const { outcome, read } = await runOnce('charge');
    expect(outcome).toMatchObject({ errorType: 'network', recoverable: false });
    expect(read?.value).toBe(
      [
        'Tool charge failed: network, attempt 1/1.',
        'The card network refused the connection.',
        'Retrying will not help.',
        'Next: Do not repeat this call; use another tool, or tell the user.',
      ].join('\n'),
    );
  });
});

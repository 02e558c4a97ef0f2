import { describe, expect, it } from '@jest/globals';
import { NetworkError } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { tool } from '@openai/agents';
import { runAgent, scriptedModel, toolOutputsSentAt } from '../test/scripted-run.js';
import { shieldAgentsTool } from './shield-agents-tool.js';
import type { AgentsToolParameters } from './to-agents-tools.js';

const flightParameters: AgentsToolParameters = {
  type: 'object',
  properties: { flight: { type: 'string' } },
  required: ['flight'],
  additionalProperties: true,
};

/** A booking API that takes the booking when the request arrives, then misbehaves. */
function bookingTool(name: string, misbehave: () => Promise<never>, bookings: string[]) {
  return tool({
    name,
    description: 'Books a flight; charges the card.',
    parameters: flightParameters,
    strict: false,
    errorFunction: null,
    execute: async (input) => {
      bookings.push((input as { flight: string }).flight);
      return misbehave();
    },
  });
}

/** The Agents SDK's run: one call of the tool, then an answer; what the model read of the call. */
async function runOnce(make: (bookings: string[]) => ReturnType<typeof bookingTool>) {
  const clock = new VirtualClock();
  const bookings: string[] = [];
  const model = scriptedModel([
    [{ id: 'call_1', name: 'book', args: { flight: 'LH 123' } }],
    'Checking.',
  ]);
  await clock.runUntilSettled(
    runAgent(model, [shieldAgentsTool(make(bookings), { timeoutMs: 200, clock })]),
  );
  return { bookings, read: toolOutputsSentAt(model, 1)['call_1'] };
}

describe('shieldAgentsTool: a tool not marked idempotent that failed after its request left', () => {
  it('timed out after the booking was taken: the model reads that it may have happened, not to retry', async () => {
    const { bookings, read } = await runOnce((taken) =>
      bookingTool('book', () => new Promise<never>(() => undefined), taken),
    );
    expect(bookings).toEqual(['LH 123']);
    expect(read).toBe(
      [
        'Tool book failed: timeout, attempt 1/1.',
        'Timed out after 200 ms.',
        'It may have taken effect.',
        'Next: Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ].join('\n'),
    );
  });

  it('lost its connection after sending (ECONNRESET): the same', async () => {
    const { read } = await runOnce((taken) =>
      bookingTool(
        'book',
        () => Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
        taken,
      ),
    );
    expect(read).toContain('socket hang up.\nIt may have taken effect.');
    expect(read).not.toMatch(/\bRetry/);
  });

  it("threw NetworkError with retryable: false: the tool's word is what the model reads", async () => {
    const { read } = await runOnce((taken) =>
      bookingTool(
        'book',
        () =>
          Promise.reject(
            new NetworkError('The card network refused the connection.', {
              retryable: false,
              metadata: { code: 'ECONNREFUSED' },
            }),
          ),
        taken,
      ),
    );
    expect(read).toBe(
      [
        'Tool book failed: network, attempt 1/1.',
        'The card network refused the connection.',
        'Retrying will not help.',
        'Next: Do not repeat this call; use another tool, or tell the user.',
      ].join('\n'),
    );
  });
});

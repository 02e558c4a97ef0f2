import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
} from '@toolshield/core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSampleApp } from '../../test/fixtures/sample-app.js';
import { NotesDirectory } from '../tools/notes-directory.js';
import { runDemo } from './demo.js';

const FINAL_ANSWER =
  'Paris tomorrow: 18°C and light rain. 200 EUR is 216.00 USD (rate 1.08). ' +
  'Your paris-trip note now reads: pack an umbrella.';

describe('the scripted demo conversation', () => {
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  beforeEach(async () => (app = await createSampleApp()));
  afterEach(() => app.close());

  it('retries the flaky upstream, recovers from the missing note through the decision prompt, and completes', async () => {
    const { result, transcript } = await app.inVirtualTime(runDemo(app.moduleRef, {}));

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      finalAnswer: FINAL_ANSWER,
      steps: 3,
    });
    const turns = result.messages.flatMap((message) =>
      message.role === 'assistant' ? [(message.toolCalls ?? []).map((call) => call.name)] : [],
    );
    expect(turns).toEqual([
      ['get_weather', 'get_exchange_rate', 'append_note'],
      ['write_note'],
      ['complete'],
    ]);
    const decisionPrompt = result.messages.find(
      (message) => message.role === 'user' && message.content.startsWith('Tool failed:'),
    );
    expect(decisionPrompt?.content).toContain('- append_note (call_3): not_found, not recoverable');

    const note = join(await app.moduleRef.get(NotesDirectory).path(), 'paris-trip.txt');
    await expect(readFile(note, 'utf8')).resolves.toBe('pack an umbrella\n');

    expect(validateOpenAIHistory(toOpenAIMessages(result.messages))).toEqual([]);
    expect(validateAnthropicHistory(toAnthropicMessages(result.messages).messages)).toEqual([]);

    expect(transcript).toContain('model: scripted stand-in for an LLM');
    expect(transcript).toMatch(
      /↻ get_exchange_rate: attempt 1 failed \(network: read ECONNRESET\), retrying in \d+ ms\n {2}↻ get_exchange_rate: attempt 2 failed/,
    );
    expect(transcript).toContain('Tool append_note failed: not_found, attempt 1/1.');
    expect(transcript).toContain('decision prompt (added by the agent runner):');
    expect(transcript).toContain(
      'assistant: CONTINUE: append_note failed (not_found, not recoverable)',
    );
    expect(transcript.endsWith(`\n  ${FINAL_ANSWER}`)).toBe(true);
  });
});

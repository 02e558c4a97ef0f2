import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AgentRunnerFactory } from '@toolshield/nest';
import { createSampleApp } from '../../test/fixtures/sample-app.js';
import { ScriptedModel, type ScriptedTask } from './scripted-model.js';

const city = (name: string) => ({ name: 'get_weather', arguments: { city: name } });
const reportSky = (output: unknown) =>
  `${(output as { city: string }).city}: ${(output as { sky: string }).sky}.`;

describe('ScriptedModel', () => {
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  beforeEach(async () => (app = await createSampleApp()));
  afterEach(() => app.close());

  async function run(task: ScriptedTask) {
    const model = new ScriptedModel(task);
    const runner = app.moduleRef.get(AgentRunnerFactory).create({ model: model.chat });
    return app.inVirtualTime(runner.run({ conversationId: 'c', input: 'Weather, please.' }));
  }

  it('says CONTINUE and takes the next approach after a failure, never repeating the failed call', async () => {
    const result = await run({
      goals: [
        { need: 'the weather', approaches: [city('Atlantis'), city('Lima')], report: reportSky },
      ],
    });

    const assistant = result.messages.filter((message) => message.role === 'assistant');
    expect(assistant.map((message) => message.toolCalls?.map((call) => call.arguments))).toEqual([
      ['{"city":"Atlantis"}'],
      ['{"city":"Lima"}'],
      ['{"answer":"Lima: clear."}'],
    ]);
    expect(assistant[1]?.content).toBe(
      'CONTINUE: get_weather failed (not_found, not recoverable): No weather station for "Atlantis". Trying get_weather instead.',
    );
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Lima: clear.' });
  });

  it('says STOP and completes with what it has and what failed when a goal has no approach left', async () => {
    const result = await run({
      goals: [
        { need: 'the weather in Oslo', approaches: [city('Oslo')], report: reportSky },
        { need: 'the weather in Atlantis', approaches: [city('Atlantis')], report: reportSky },
      ],
    });

    const last = result.messages.filter((message) => message.role === 'assistant').at(-1);
    expect(last?.content).toBe(
      'STOP: get_weather failed (not_found, not recoverable): No weather station for "Atlantis". ' +
        'No other way to get the weather in Atlantis is left.',
    );
    expect(last?.toolCalls?.map((call) => call.name)).toEqual(['complete']);
    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool' },
      finalAnswer:
        'Oslo: overcast. I could not get the weather in Atlantis: No weather station for "Atlantis".',
      steps: 2,
    });
  });
});

describe('ScriptedModel after a call that waited for a person', () => {
  const pay = { name: 'pay_invoice', arguments: { invoice: 'INV-7', amount: 5000 } };
  const task: ScriptedTask = {
    goals: [
      {
        need: 'the payment',
        approaches: [pay, { name: 'pay_invoice', arguments: { invoice: 'INV-7', amount: 4999 } }],
        report: () => 'Paid.',
      },
    ],
  };
  /** The model's reply once the call's result is `failure` (as the tool message carries it). */
  async function replyAfter(failure: object) {
    const model = new ScriptedModel(task);
    const asked = await model.chat({
      messages: [{ role: 'user', content: 'Pay INV-7.' }],
      tools: [],
    });
    const call = asked.toolCalls?.[0];
    return model.chat({
      messages: [
        { role: 'user', content: 'Pay INV-7.' },
        asked,
        {
          role: 'tool',
          toolCallId: call?.id ?? '',
          name: 'pay_invoice',
          content: JSON.stringify(failure),
          isError: true,
        },
      ],
      tools: [],
    });
  }

  it.each([
    {
      errorType: 'approval_denied',
      error: 'A person declined: over budget. Do not call it again with these arguments.',
    },
    {
      errorType: 'approval_expired',
      error: 'Nobody approved the call within 24 h, so it did not run.',
    },
  ])(
    'reads $errorType as its own text, says so and stops, trying no other way',
    async (failure) => {
      const reply = await replyAfter({ ...failure, recoverable: false, retryCount: 0 });
      expect(reply.content).toBe(
        `STOP: pay_invoice did not run: ${failure.error.replace(/\.$/, '')}. I will not try to get the payment another way.`,
      );
      expect(reply.toolCalls?.map((call) => call.name)).toEqual(['complete']);
    },
  );
});

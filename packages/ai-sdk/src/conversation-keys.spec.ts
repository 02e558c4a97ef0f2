import { describe, expect, it } from '@jest/globals';
import { useTravelApp, type TravelApp } from '@toolshield/adapter-testing';
import { generateText, isStepCount } from 'ai';
import { scriptedModel } from '@toolshield/adapter-testing/ai-model';
import { toAiSdkTools, type AiSdkToolsOptions } from './to-ai-sdk-tools.js';

const travelApp = useTravelApp();

/** One conversation's turn: its model calls the forecast as `call_3`, as models number calls per conversation. */
function turn({ catalog, clock }: TravelApp, options: AiSdkToolsOptions) {
  const model = scriptedModel([
    [{ id: 'call_3', name: 'get_forecast', args: { city: 'Paris' } }],
    'Clear skies.',
  ]);
  return clock.runUntilSettled(
    generateText({
      model,
      tools: toAiSdkTools(catalog, options),
      stopWhen: isStepCount(3),
      prompt: 'Weather in Paris?',
    }),
  );
}

describe('toAiSdkTools conversationId: idempotency keys scoped by conversation', () => {
  it('gives two conversations whose model reuses call_3 different keys, and the same conversation the same key', async () => {
    const app = await travelApp();
    await turn(app, { conversationId: 'conv-a' });
    await turn(app, { conversationId: 'conv-b' });
    await turn(app, { conversationId: 'conv-a' }); // the same call after a resume
    expect(app.tools.forecastKeys).toEqual(['conv-a:call_3', 'conv-b:call_3', 'conv-a:call_3']);
  });

  it("takes the conversation from each call's execution options when given a function", async () => {
    const app = await travelApp();
    const seen: string[] = [];
    await turn(app, {
      conversationId: ({ toolCallId, messages }) => {
        seen.push(toolCallId);
        return messages.length > 0 ? 'from-messages' : undefined;
      },
    });
    expect(seen).toEqual(['call_3']);
    expect(app.tools.forecastKeys).toEqual(['from-messages:call_3']);
  });

  it('gives each call a key of its own when no conversation is known', async () => {
    const app = await travelApp();
    await turn(app, {});
    await turn(app, {});
    const [first, second] = app.tools.forecastKeys;
    expect(first).toMatch(/:call_3$/);
    expect(second).toMatch(/:call_3$/);
    expect(first).not.toBe(second);
  });
});

import { describe, expect, it } from '@jest/globals';
import { useTravelApp, type TravelApp } from '@toolshield/adapter-testing';
import { Agent, Runner } from '@openai/agents';
import { scriptedModel } from '../test/scripted-run.js';
import { toAgentsTools, type AgentsToolsOptions } from './to-agents-tools.js';

const travelApp = useTravelApp();

interface ChatContext {
  readonly threadId: string;
}

/** One conversation's turn in the SDK's run loop: its model calls the forecast as `call_3`. */
function turn({ catalog, clock }: TravelApp, threadId: string, options: AgentsToolsOptions) {
  const model = scriptedModel([
    [{ id: 'call_3', name: 'get_forecast', args: { city: 'Paris' } }],
    'Clear skies.',
  ]);
  const agent = new Agent({
    name: 'Travel agent',
    instructions: 'Help.',
    model,
    tools: toAgentsTools(catalog, options),
  });
  const context: ChatContext = { threadId };
  return clock.runUntilSettled(
    new Runner({ tracingDisabled: true }).run(agent, 'Weather in Paris?', { context }),
  );
}

const byThread: AgentsToolsOptions = {
  conversationId: (runContext) => (runContext.context as ChatContext).threadId,
};

describe('toAgentsTools conversationId: idempotency keys scoped by conversation', () => {
  it('gives two conversations whose model reuses call_3 different keys, and the same conversation the same key', async () => {
    const app = await travelApp();
    await turn(app, 'thread-a', byThread);
    await turn(app, 'thread-b', byThread);
    await turn(app, 'thread-a', byThread); // the same call after a resume
    expect(app.tools.forecastKeys).toEqual([
      'thread-a:call_3',
      'thread-b:call_3',
      'thread-a:call_3',
    ]);
  });

  it('gives each call a key of its own when no conversation is known', async () => {
    const app = await travelApp();
    await turn(app, 'thread-a', {});
    await turn(app, 'thread-a', {});
    const [first, second] = app.tools.forecastKeys;
    expect(first).toMatch(/:call_3$/);
    expect(second).toMatch(/:call_3$/);
    expect(first).not.toBe(second);
  });
});

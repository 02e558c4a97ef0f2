import { describe, expect, it } from '@jest/globals';
import type { ToolCallRequest } from '../../results/index.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import { callsTo, scriptedModel, succeeded } from '../fixtures.test.js';
import { AgentRunner } from './agent-runner.js';

/** An executor that answers like an app without a completion tool, and keeps what it ran. */
function appExecutor(known: readonly string[]) {
  const runs: { call: ToolCallRequest; conversationId?: string }[] = [];
  const executor: ToolCallExecutor = async (call, options) => {
    runs.push({ call, conversationId: options.conversationId });
    if (known.includes(call.name)) return succeeded(call, `${call.name} done`);
    return {
      success: false,
      tool: call.name,
      callId: call.id ?? '',
      error: `There is no tool named "${call.name}".`,
      errorType: 'tool_not_found',
      recoverable: false,
      retryCount: 0,
      retryMax: 0,
      suggestions: [],
      metadata: { attempts: 1, durationMs: 0 },
    };
  };
  return { executor, runs };
}

describe('AgentRunner offers what it names', () => {
  it('offers its completion tool when the app has none: the STOP call ends the run', async () => {
    const model = scriptedModel([
      callsTo(['c1', 'search', { q: 'flights' }]),
      callsTo(['c2', 'complete', { answer: 'No flights today.' }]),
    ]);
    const app = appExecutor(['search']);
    const runner = new AgentRunner({
      model,
      executor: app.executor,
      tools: [{ name: 'search', description: 'Finds flights.' }],
    });

    const result = await runner.run({ conversationId: 'trip', input: 'Fly me to Lima.' });

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      finalAnswer: 'No flights today.',
    });
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['search', 'complete']);
    expect(model.requests[0].tools[1]?.parameters).toMatchObject({ required: ['answer'] });
    expect(app.runs.map((run) => run.call.name)).toEqual(['search']);
    const stop = result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c2');
    expect(stop).toMatchObject({ content: 'No flights today.' });
    expect(JSON.stringify(result.messages)).not.toContain('There is no tool named');
  });

  it('names and offers the configured completion tool', async () => {
    const model = scriptedModel([callsTo(['c1', 'finish', { answer: 'Done.' }])]);
    const runner = new AgentRunner({
      model,
      executor: appExecutor([]).executor,
      completionTool: 'finish',
    });

    const result = await runner.run({ conversationId: 'c', input: 'Go.' });

    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Done.' });
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['finish']);
    expect(result.messages[0].content).toContain('STOP by calling finish');
  });

  it("leaves the app's own completion tool to the app", async () => {
    const model = scriptedModel([callsTo(['c1', 'complete', { answer: 'ignored' }])]);
    const app = appExecutor(['complete']);
    const runner = new AgentRunner({
      model,
      executor: app.executor,
      tools: [{ name: 'complete' }],
    });

    const result = await runner.run({ conversationId: 'c', input: 'Go.' });

    expect(result.finalAnswer).toBe('complete done');
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['complete']);
    expect(app.runs.map((run) => run.call.name)).toEqual(['complete']);
  });
});

describe('AgentRunner scopes calls by conversation', () => {
  it('passes the conversation id to every call it runs', async () => {
    const app = appExecutor(['book']);
    const runner = new AgentRunner({
      model: scriptedModel([
        callsTo(['call_3', 'book'], ['call_4', 'book']),
        { role: 'assistant', content: 'Booked.' },
      ]),
      executor: app.executor,
    });

    await runner.run({ conversationId: 'alice', input: 'Book it.' });

    expect(app.runs.map((run) => run.conversationId)).toEqual(['alice', 'alice']);
  });
});

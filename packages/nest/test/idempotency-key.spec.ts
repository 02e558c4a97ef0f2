import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createToolApp } from './fixtures/create-app.js';
import { WeatherTools } from './fixtures/weather.tools.js';

describe('ToolCallContext.idempotencyKey', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: WeatherTools;

  beforeEach(async () => {
    ctx = await createToolApp([WeatherTools]);
    tools = ctx.moduleRef.get(WeatherTools);
  });
  afterEach(() => ctx.close());

  it('is the key the caller passed, on every attempt of the call', async () => {
    await ctx.executor.execute(
      { id: 'call_7', name: 'get_weather', arguments: { city: 'Paris' } },
      { idempotencyKey: 'run-1:call_7' },
    );
    expect(tools.calls[0]?.call.idempotencyKey).toBe('run-1:call_7');
  });

  it('is the conversation id and the call id when the caller passed a conversation', async () => {
    const call = { id: 'call_8', name: 'get_weather', arguments: { city: 'Oslo' } };
    await ctx.executor.execute(call, { conversationId: 'run-2' });
    await ctx.executor.execute(call, { conversationId: 'run-2' });
    expect(tools.calls.map((entry) => entry.call.idempotencyKey)).toEqual([
      'run-2:call_8',
      'run-2:call_8',
    ]);
  });

  it('is unique to the call when no conversation is known, so two conversations never share one', async () => {
    const call = { id: 'call_8', name: 'get_weather', arguments: { city: 'Oslo' } };
    await ctx.executor.execute(call);
    await ctx.executor.execute(call);
    const [first, second] = tools.calls.map((entry) => entry.call.idempotencyKey);
    expect(first).toMatch(/^[0-9a-f-]{36}:call_8$/);
    expect(second).toMatch(/^[0-9a-f-]{36}:call_8$/);
    expect(first).not.toBe(second);
  });

  it('refuses a blank conversation id, naming the option', async () => {
    const outcome = await ctx.executor.execute(
      { id: 'call_9', name: 'get_weather', arguments: { city: 'Oslo' } },
      { conversationId: ' ' },
    );
    expect(outcome).toMatchObject({ success: false, errorType: 'invalid_input' });
    expect(outcome.success ? '' : outcome.error).toContain('conversationId');
  });
});

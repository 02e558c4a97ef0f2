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

  it('is the call id when the caller passed none, so it stays the same for the same call', async () => {
    await ctx.executor.execute({ id: 'call_8', name: 'get_weather', arguments: { city: 'Oslo' } });
    await ctx.executor.execute({ id: 'call_8', name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(tools.calls.map((entry) => entry.call.idempotencyKey)).toEqual(['call_8', 'call_8']);
  });
});

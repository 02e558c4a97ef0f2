import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import { createToolApp } from './fixtures/create-app.js';
import { WeatherTools } from './fixtures/weather.tools.js';

describe('ToolExecutor', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: WeatherTools;
  let events: ToolEvent[];

  beforeEach(async () => {
    ctx = await createToolApp([WeatherTools]);
    tools = ctx.moduleRef.get(WeatherTools);
    events = [];
    ctx.executor.events$.subscribe((event) => events.push(event));
  });
  afterEach(() => ctx.close());

  it('runs a tool and returns a ToolResult with the validated DTO', async () => {
    const outcome = await ctx.executor.execute({
      id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris","units":"metric"}',
    });
    expect(outcome).toEqual({
      success: true,
      tool: 'get_weather',
      callId: 'call_1',
      output: { city: 'Paris', tempC: 21, units: 'metric', isDto: true },
      metadata: expect.objectContaining({ attempts: 1 }),
    });
    expect(tools.calls[0]?.call).toMatchObject({
      callId: 'call_1',
      toolName: 'get_weather',
      attempt: 1,
    });
    expect(tools.calls[0]?.call.signal).toBeInstanceOf(AbortSignal);
  });

  it('accepts arguments as an object and generates a call id when the model sent none', async () => {
    const outcome = (await ctx.executor.execute({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
    })) as ToolResult;
    expect(outcome.success).toBe(true);
    expect(outcome.callId).toMatch(/^call_/);
  });

  it('answers an unknown tool with the available tools and a did-you-mean, and calls nothing', async () => {
    const outcome = (await ctx.executor.execute({
      id: 'c',
      name: 'sequential-thinking',
      arguments: '{}',
    })) as ToolFailure;
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'tool_not_found',
      recoverable: true,
      retryCount: 0,
      availableTools: ['get_weather', 'sequential-thinking__sequentialthinking'],
      didYouMean: ['sequential-thinking__sequentialthinking'],
    });
    expect(outcome.error).toBe('There is no tool named "sequential-thinking".');
    expect(tools.calls).toHaveLength(0);
  });

  it('answers malformed JSON with invalid_input saying where it broke, without calling the tool', async () => {
    const outcome = (await ctx.executor.execute({
      id: 'c',
      name: 'get_weather',
      arguments: '{"city": "Par',
    })) as ToolFailure;
    expect(outcome.errorType).toBe('invalid_input');
    expect(outcome.error).toMatch(/column|position|line/i);
    expect(outcome.retryCount).toBe(0);
    expect(tools.calls).toHaveLength(0);
  });

  it('answers DTO validation failures with field-level issues', async () => {
    const outcome = (await ctx.executor.execute({
      id: 'c',
      name: 'get_weather',
      arguments: { city: 'P', units: 'kelvin', near: { lat: 500, lon: 0 } },
    })) as ToolFailure;
    expect(outcome.errorType).toBe('invalid_input');
    const paths = outcome.issues?.map((issue) => issue.path).sort();
    expect(paths).toEqual(['city', 'near.lat', 'units']);
    expect(outcome.recoverable).toBe(true);
    expect(tools.calls).toHaveLength(0);
  });

  it('refuses properties the DTO does not declare', async () => {
    const outcome = (await ctx.executor.execute({
      id: 'c',
      name: 'get_weather',
      arguments: { city: 'Rome', mood: 'sunny' },
    })) as ToolFailure;
    expect(outcome.errorType).toBe('invalid_input');
    expect(outcome.issues?.map((issue) => issue.path)).toContain('mood');
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'rejects a %s key and never applies it',
    async (key) => {
      const outcome = (await ctx.executor.execute({
        id: 'c',
        name: 'get_weather',
        arguments: `{"city":"Rome","nested":{"${key}":{"polluted":true}}}`,
      })) as ToolFailure;
      expect(outcome.errorType).toBe('invalid_input');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(tools.calls).toHaveLength(0);
    },
  );

  it('emits exactly one terminal event per started call', async () => {
    await ctx.executor.execute({ id: 'a', name: 'get_weather', arguments: { city: 'Lima' } });
    await ctx.executor.execute({ id: 'b', name: 'nope' });
    await ctx.executor.execute({ id: 'c', name: 'get_weather', arguments: '{' });
    const started = events
      .filter((event) => event.type === 'call.started')
      .map((event) => 'callId' in event && event.callId);
    const terminal = events
      .filter((event) => event.type === 'call.succeeded' || event.type === 'call.failed')
      .map((event) => 'callId' in event && event.callId);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(terminal).toEqual(['a', 'b', 'c']);
  });

  it('survives garbage requests', async () => {
    for (const request of [
      undefined,
      null,
      42,
      'get_weather',
      { name: Symbol('x') },
      { name: {} },
    ]) {
      const outcome = await ctx.executor.execute(request as never);
      expect(outcome.success).toBe(false);
    }
  });
});

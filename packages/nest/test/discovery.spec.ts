import { describe, expect, it } from '@jest/globals';
import { Injectable, Scope } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { toAnthropicTool, toOpenAIFunctionTool } from '@toolshield/core/agent';
import { toMcpTool } from '@toolshield/core/internal';
import { Tool, ToolShieldModule } from '../src/index.js';
import { createToolApp } from './fixtures/create-app.js';
import { WeatherTools } from './fixtures/weather.tools.js';

@Injectable()
class OtherWeatherTools {
  @Tool({ name: 'get_weather', description: 'A second tool with a taken name.' })
  getWeather() {
    return null;
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestScopedTools {
  @Tool({ name: 'whoami', description: 'Per-request tool.' })
  whoami() {
    return null;
  }
}

@Injectable()
class BadlyNamedTools {
  @Tool({ name: 'get weather!', description: 'Spaces are not portable.' })
  bad() {
    return null;
  }
}

@Injectable()
class DefaultNamedTools {
  @Tool({ description: 'Named after its method.' })
  lookup_order() {
    return null;
  }
}

const bootstrapError = async (providers: unknown[]): Promise<Error> => {
  const moduleRef = await Test.createTestingModule({
    imports: [ToolShieldModule.forRoot()],
    providers: providers as never[],
  }).compile();
  moduleRef.useLogger(false);
  const error = await moduleRef.init().then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
  await moduleRef.close().catch(() => undefined);
  if (!error) throw new Error('expected bootstrap to fail');
  return error;
};

describe('tool discovery', () => {
  it('registers each @Tool method once, named by option or method name', async () => {
    const ctx = await createToolApp([WeatherTools, DefaultNamedTools]);
    expect(ctx.registry.names()).toEqual([
      'get_weather',
      'sequential-thinking__sequentialthinking',
      'lookup_order',
    ]);
    await ctx.close();
  });

  it('fails startup on a duplicate tool name, naming both places', async () => {
    const error = await bootstrapError([WeatherTools, OtherWeatherTools]);
    expect(error.message).toContain('"get_weather" is registered twice');
    expect(error.message).toContain('WeatherTools.getWeather');
    expect(error.message).toContain('OtherWeatherTools.getWeather');
  });

  it('refuses request-scoped tool providers at startup with a clear message', async () => {
    const error = await bootstrapError([RequestScopedTools]);
    expect(error.message).toContain('RequestScopedTools.whoami is request-scoped');
  });

  it('refuses names that the providers would reject', async () => {
    const error = await bootstrapError([BadlyNamedTools]);
    expect(error.message).toContain('"get weather!"');
  });

  it('derives a JSON Schema from the DTO, nested DTOs inlined', async () => {
    const ctx = await createToolApp([WeatherTools]);
    const definition = ctx.registry.get('get_weather')?.definition;
    const coordinates = {
      type: 'object',
      properties: {
        lat: expect.objectContaining({ type: 'integer', minimum: -90, maximum: 90 }),
        lon: expect.objectContaining({ type: 'integer', minimum: -180, maximum: 180 }),
      },
      required: ['lat', 'lon'],
    };
    expect(definition?.inputSchema).toMatchObject({
      type: 'object',
      required: ['city'],
      properties: {
        city: { type: 'string', minLength: 2, maxLength: 80 },
        units: { enum: ['metric', 'imperial'] },
        near: coordinates,
        alternatives: { type: 'array', maxItems: 3, items: coordinates },
      },
    });
    expect(JSON.stringify(definition)).not.toContain('$ref');
    await ctx.close();
  });

  it('exports definitions for OpenAI, Anthropic and MCP', async () => {
    const ctx = await createToolApp([WeatherTools]);
    const definition = ctx.registry.definitions()[0];
    if (!definition) throw new Error('no tool registered');
    expect(toOpenAIFunctionTool(definition)).toMatchObject({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: { type: 'object' },
      },
    });
    expect(toAnthropicTool(definition)).toMatchObject({
      name: 'get_weather',
      input_schema: { type: 'object' },
    });
    expect(toMcpTool(definition)).toMatchObject({
      name: 'get_weather',
      inputSchema: { type: 'object' },
    });
    await ctx.close();
  });
});

/**
 * Files of the smoke app that the READMEs leave to the reader: the tools their examples use,
 * the Nest application context the adapter examples call `app`, and the scripted models that
 * stand in for OpenAI (copied from the adapters' own test support, so a README example runs
 * the real SDK loop without a network).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A scripted step: the model calls get_weather for Paris, then answers. */
export const WEATHER_SCRIPT = `[[{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }], 'Sunny, 21 degrees in Paris.']`;

/** Source files (path under the app's `src/` → text). */
export function fixtureFiles(root) {
  const copy = (path) => readFileSync(join(root, path), 'utf8');
  return {
    'weather.tools.ts': `import { Injectable } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { Tool, ToolArgs } from '@toolshield/nest';

class GetWeatherArgs {
  @IsString() @Length(2, 80) city!: string;
}

@Injectable()
export class WeatherTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.', idempotent: true })
  getWeather(@ToolArgs() args: GetWeatherArgs) {
    return Promise.resolve({ city: args.city, tempC: 21 });
  }
}
`,
    'app-context.ts': `import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ToolShieldModule } from '@toolshield/nest';
import { WeatherTools } from './weather.tools.js';

@Module({ imports: [ToolShieldModule.forRoot({ isGlobal: true })], providers: [WeatherTools] })
class WeatherModule {}

export const app = await NestFactory.createApplicationContext(WeatherModule, { logger: false });
export const request = { signal: new AbortController().signal };
`,
    'search.module.ts': `import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Tool, ToolArgs, ToolShieldModule } from '@toolshield/nest';

class SearchArgs {
  @IsString() query!: string;
}

@Injectable()
class SearchTools {
  @Tool({ name: 'search', description: 'Search the catalogue.', idempotent: true })
  search(@ToolArgs() args: SearchArgs) {
    return Promise.resolve({ hits: [args.query] });
  }
}

@Module({ imports: [ToolShieldModule.forRoot()], providers: [SearchTools] })
export class AppModule {}
`,
    'fakes/ai-sdk-scripted-model.ts': copy('packages/adapter-testing/src/scripted-ai-model.ts'),
    'fakes/openai-agents-scripted-run.ts': copy('packages/openai-agents/test/scripted-run.ts'),
    'fakes/langchain-scripted-chat-model.ts': copy(
      'packages/langchain/test/scripted-chat-model.ts',
    ),
    // The app has no @toolshield/adapter-testing (private): the copy above stands in for it.
    'fakes/mastra-scripted-model.ts': copy('packages/mastra/test/scripted-model.ts').replace(
      "'@toolshield/adapter-testing/ai-model'",
      "'./ai-sdk-scripted-model.js'",
    ),
    'fakes/openai.ts': `import { scriptedModel } from './ai-sdk-scripted-model.js';

/** Stands in for @ai-sdk/openai: whatever model is asked for, a scripted one. */
export const openai = (_modelId: string) => scriptedModel(${WEATHER_SCRIPT});
`,
  };
}

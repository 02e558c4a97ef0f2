/**
 * Smoke programs built from the README examples: the root README's "A tool in thirty seconds"
 * and each package README's first ```ts block, each put in context (the `app` a fragment
 * uses, a fetch that answers like the weather upstream, a scripted model instead of OpenAI,
 * a free port instead of 3000) and followed by a line `RESULT <json>` that `check` reads.
 * A README whose example no longer fits fails with a message naming this file.
 */
import { WEATHER_SCRIPT } from './fixtures.mjs';
import { adaptedFirstBlock, firstTsBlock, readme, tsBlockWith } from './readme-blocks.mjs';
import { fail } from './steps.mjs';

const FETCH_WEATHER = `globalThis.fetch = async () =>
  new Response(JSON.stringify({ city: 'Paris', tempC: 21 }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });`;

/**
 * Every README program: `{ name, file, source, check(result) -> problem | undefined }`;
 * `adapter: true` for the framework adapters' examples, which are compiled with skipLibCheck
 * (checking the AI SDK's, the Agents SDK's, LangChain's and Mastra's own declarations took most
 * of a minute of CPU here).
 */
export function readmePrograms(root) {
  return [
    rootReadme(root),
    coreReadme(root),
    nestReadme(root),
    chaosReadme(root),
    mcpReadme(root),
    redisReadme(root),
    aiSdkReadme(root),
    openAiAgentsReadme(root),
    langChainReadme(root),
    mastraReadme(root),
  ];
}

const sentWeather = (value) => JSON.stringify(value).includes('21');

function rootReadme(root) {
  const doc = readme(root, '.');
  const block = firstTsBlock(doc, '## A tool in thirty seconds');
  const [declarations, usage] = block.split(/^\/\/ later.*$/m);
  if (usage === undefined || !usage.includes('const outcome')) {
    fail(
      `the example in ${doc.path} changed shape: expected "// later ..." followed by \`const outcome = ...\`; update tools/scripts/registry-smoke/readme-programs.mjs`,
    );
  }
  return {
    name: 'README.md',
    file: 'readme-example',
    source: `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
${declarations}
const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
const messages: unknown[] = [];
${FETCH_WEATHER}
${usage}
globalThis.fetch = async () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
};
const failure = await app.get(ToolExecutor).execute({ id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' });
console.log('RESULT ' + JSON.stringify({ outcome, messages, failure }));
await app.close();
`,
    check: ({ outcome, messages: [message], failure }) =>
      outcome.success !== true || outcome.output?.tempC !== 21
        ? `the example did not succeed: ${JSON.stringify(outcome)}`
        : message?.role !== 'tool' || message.tool_call_id !== 'call_1' || !sentWeather(message)
          ? `toOpenAIToolMessage gave ${JSON.stringify(message)}`
          : failure.success !== false || typeof failure.errorType !== 'string'
            ? `a failing upstream did not end in a ToolFailure: ${JSON.stringify(failure)}`
            : undefined,
  };
}

/** Each statement of the block throws one of core's errors: classify what each threw. */
function coreReadme(root) {
  const lines = statementsOf(firstTsBlock(readme(root, 'core')));
  const classes = [
    ...new Set(lines.flatMap((line) => [...line.matchAll(/new (\w+)\(/g)].map((m) => m[1]))),
  ];
  return {
    name: 'packages/core/README.md',
    file: 'core-readme',
    source: `import { classifyError as smokeClassify, ${classes.join(', ')} } from '@toolshield/core';
const thrown: unknown[] = [];
${lines.map((line) => `try {\n  ${line}\n} catch (error) {\n  thrown.push(error);\n}`).join('\n')}
console.log('RESULT ' + JSON.stringify(thrown.map((error) => {
  const classified = smokeClassify(error);
  return { same: classified === error, type: classified.type, retryable: classified.retryable };
})));
`,
    check: (errors) => {
      if (errors.length !== lines.length)
        return `${lines.length} lines threw ${errors.length} errors`;
      for (const [index, error] of errors.entries()) {
        const said = lines[index].match(/retryable: (true|false)/)?.[1];
        if (!error.same || (said !== undefined && String(error.retryable) !== said)) {
          return `\`${lines[index].trim()}\` classified as ${JSON.stringify(error)}`;
        }
      }
      return undefined;
    },
  };
}

function nestReadme(root) {
  return {
    name: 'packages/nest/README.md',
    file: 'nest-readme',
    source: `import 'reflect-metadata';
${FETCH_WEATHER}
${firstTsBlock(readme(root, 'nest'))}
console.log('RESULT ' + JSON.stringify({ tools: tools.map((tool) => tool.function.name), outcome, message }));
await app.close();
`,
    check: ({ tools, outcome, message }) =>
      !tools.includes('get_weather') || outcome.success !== true || message.role !== 'tool'
        ? `got ${JSON.stringify({ tools, outcome, message })}`
        : undefined,
  };
}

/** The block's statements, each ending in a line that ends with `;` (one may span lines). */
function statementsOf(block) {
  const statements = [];
  let current = [];
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    current.push(line);
    if (line.trimEnd().endsWith(';')) {
      statements.push(current.join('\n'));
      current = [];
    }
  }
  return statements;
}

/** The wrapped function called six times on the example's virtual clock. */
function chaosReadme(root) {
  return {
    name: 'packages/chaos/README.md',
    file: 'chaos-readme',
    source: `import { isChaosInjected as smokeInjected } from '@toolshield/chaos';
const rawSearch = async (args: { query: string }) => ({ hits: [args.query] });
${firstTsBlock(readme(root, 'chaos'))}
const outcomes: string[] = [];
for (let i = 0; i < 6; i++) {
  try {
    await clock.runUntilSettled(search({ query: \`q\${i}\` }));
    outcomes.push('ok');
  } catch (error) {
    outcomes.push(smokeInjected(error) ? 'injected' : String(error));
  }
}
console.log('RESULT ' + JSON.stringify({ outcomes, counters: search.chaos.counters() }));
`,
    check: ({ outcomes, counters }) =>
      counters.calls !== 6 ||
      counters.injections < 1 ||
      !outcomes.every((o) => o === 'ok' || o === 'injected')
        ? `got ${JSON.stringify({ outcomes, counters })}`
        : undefined,
  };
}

/** Served on a free port of 127.0.0.1; the official MCP client lists and calls the tool. */
function mcpReadme(root) {
  const block = adaptedFirstBlock(
    root,
    'mcp',
    "app.listen(3000, '127.0.0.1')",
    "app.listen(0, '127.0.0.1')",
  );
  return {
    name: 'packages/mcp/README.md',
    file: 'mcp-readme',
    source: `import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
${block}
const client = new Client({ name: 'registry-smoke', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', await app.getUrl())));
const listed = await client.listTools();
const called = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
await client.close();
await app.close();
console.log('RESULT ' + JSON.stringify({ tools: listed.tools.map((tool) => tool.name), called }));
`,
    check: ({ tools, called }) =>
      !tools.includes('get_weather') || called.isError === true || !sentWeather(called.content)
        ? `got ${JSON.stringify({ tools, called })}`
        : undefined,
  };
}

/** The module setup (up to the decorator line that follows it) on the throwaway redis-server. */
function redisReadme(root) {
  const [setup] = firstTsBlock(readme(root, 'redis')).split(/^\/\/ in WeatherTools.*$/m);
  return {
    name: 'packages/redis/README.md',
    file: 'redis-readme',
    redis: true,
    source: `import 'reflect-metadata';
import { NestFactory as SmokeNestFactory } from '@nestjs/core';
import { ToolExecutor as SmokeExecutor } from '@toolshield/nest';
import { WeatherTools } from './weather.tools.js';
${setup}
const app = await SmokeNestFactory.createApplicationContext(AppModule, { logger: false });
const started = Date.now();
while (app.get(RedisBreakerStore).health().status !== 'shared' && Date.now() - started < 5_000) {
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const health = app.get(RedisBreakerStore).health().status;
const outcome = await app.get(SmokeExecutor).execute({ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } });
await app.close();
console.log('RESULT ' + JSON.stringify({ health, outcome }));
`,
    check: ({ health, outcome }) =>
      health !== 'shared' || outcome.success !== true
        ? `got ${JSON.stringify({ health, outcome })}`
        : undefined,
  };
}

function aiSdkReadme(root) {
  const block = adaptedFirstBlock(
    root,
    'ai-sdk',
    "from '@ai-sdk/openai'",
    "from './fakes/openai.js'",
  );
  return {
    name: 'packages/ai-sdk/README.md',
    adapter: true,
    file: 'ai-sdk-readme',
    source: `import 'reflect-metadata';
import { app, request } from './app-context.js';
${block}
console.log('RESULT ' + JSON.stringify({ outputs: result.steps.flatMap((step) => step.toolResults).map((part) => part.output), text: result.text }));
await app.close();
`,
    check: ({ outputs }) =>
      outputs.length !== 1 || outputs[0].success !== true || !sentWeather(outputs[0])
        ? `got ${JSON.stringify(outputs)}`
        : undefined,
  };
}

function openAiAgentsReadme(root) {
  const block = adaptedFirstBlock(
    root,
    'openai-agents',
    'new Runner(toolshieldRunConfig(tools))',
    'new Runner({ ...toolshieldRunConfig(tools), model, tracingDisabled: true })',
  );
  return {
    name: 'packages/openai-agents/README.md',
    adapter: true,
    file: 'openai-agents-readme',
    source: `import 'reflect-metadata';
import { app, request } from './app-context.js';
import { scriptedModel } from './fakes/openai-agents-scripted-run.js';
const recorded: unknown[] = [];
const audit = { record: (outcome: unknown) => recorded.push(outcome) };
const model = scriptedModel(${WEATHER_SCRIPT});
${block}
console.log('RESULT ' + JSON.stringify({ recorded, finalOutput: result.finalOutput }));
await app.close();
`,
    check: ({ recorded, finalOutput }) =>
      recorded.length !== 1 || recorded[0].success !== true || typeof finalOutput !== 'string'
        ? `got ${JSON.stringify({ recorded, finalOutput })}`
        : undefined,
  };
}

function langChainReadme(root) {
  const block = adaptedFirstBlock(root, 'langchain', "'openai:gpt-5-mini'", 'model');
  return {
    name: 'packages/langchain/README.md',
    adapter: true,
    file: 'langchain-readme',
    source: `import 'reflect-metadata';
import { app, request } from './app-context.js';
import { ScriptedChatModel } from './fakes/langchain-scripted-chat-model.js';
const model = new ScriptedChatModel(${WEATHER_SCRIPT});
${block}
console.log('RESULT ' + JSON.stringify({ contents: messages.map((one) => one.content), toolNode: toolNode.name }));
await app.close();
`,
    check: ({ contents }) =>
      !contents.some((content) => String(content).includes('"tempC":21'))
        ? `no tool message with the result: ${JSON.stringify(contents)}`
        : undefined,
  };
}

/** The agent example with the AI SDK's scripted model as Mastra's model; the run's tool results read. */
function mastraReadme(root) {
  return {
    name: 'packages/mastra/README.md',
    adapter: true,
    file: 'mastra-readme',
    source: `import 'reflect-metadata';
import { app, request } from './app-context.js';
import { asAgentModel, scriptedModel } from './fakes/mastra-scripted-model.js';
const model = asAgentModel(scriptedModel(${WEATHER_SCRIPT}));
${firstTsBlock(readme(root, 'mastra'))}
console.log('RESULT ' + JSON.stringify({ outcomes: result.toolResults.map((part) => part.payload.result), text: result.text }));
await app.close();
`,
    check: ({ outcomes }) =>
      outcomes.length !== 1 || outcomes[0].success !== true || !sentWeather(outcomes[0])
        ? `got ${JSON.stringify(outcomes)}`
        : undefined,
  };
}

/** chaos.config.ts: the harness config of the chaos README, around the search module. */
export function chaosConfigProgram(root) {
  const block = tsBlockWith(readme(root, 'chaos'), 'satisfies ChaosHarnessConfig');
  const scenario = block.match(/name: '([^']+)'/)?.[1];
  return {
    scenario,
    source: `import { AppModule } from './search.module.js';\n${block}`,
  };
}

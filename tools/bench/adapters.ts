/**
 * What a toolshield-wrapped tool adds inside each agent framework's own tool execution, over the
 * same tool unwrapped, side by side in one process: one tool call through the framework's
 * machinery per sample (the AI SDK's `generateText` with its mock model, one step; the Agents
 * SDK's `Runner.run` with a model stub, a tool call then an answer; LangGraph's `ToolNode`).
 * Three rows per framework run the same trivial body: the plain tool, the tool behind core's
 * shield (`shieldAiSdkTools` and friends, default policies: breaker + 30 s timeout), and a Nest
 * `@Tool` served through `ToolExecutor` (`toAiSdkTools` and friends).
 *
 * Method as in rounds.ts: BATCH sequential calls per sample, ROUNDS rounds in rotated order,
 * ratios taken within each round, median over rounds.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Agent, RunContext, Runner, Usage, tool as agentsTool, type Model } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { AIMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { shieldAiSdkTools, toAiSdkTools } from '@toolshield/ai-sdk';
import { shieldLangChainTool, toLangChainTools } from '@toolshield/langchain';
import { shieldAgentsTool, toAgentsTools } from '@toolshield/openai-agents';
import { generateText, jsonSchema, tool as aiTool, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Bench } from 'tinybench';
import { BenchModule, lookupBody, type LookupArgs } from './fixtures.js';
import { BATCH, ROUNDS, TIME_MS, type Row } from './rounds.js';
import { median, ratio, us } from './stats.js';

const FRAMEWORKS = ['ai-sdk', 'openai-agents', 'langchain'] as const;
type Framework = (typeof FRAMEWORKS)[number];
const VARIANTS = [
  'bare',
  'shielded',
  'executor',
  'bare-alone',
  'shielded-alone',
  'executor-alone',
] as const;
type Variant = (typeof VARIANTS)[number];

/** Per framework, µs per call of each variant and the ratios to the bare row (median over rounds). */
export interface AdapterReport {
  readonly rows: Record<Framework, Record<Variant, number>>;
  readonly ratios: Record<
    Framework,
    Record<'shielded' | 'executor' | 'shielded-alone' | 'executor-alone', number>
  >;
}

const CITY_SCHEMA = {
  type: 'object' as const,
  properties: { city: { type: 'string' as const } },
  required: ['city'],
  additionalProperties: true as const,
};
const ARGS = { city: 'Paris' };
const ARGS_CALL = { id: 'call_1', name: 'lookup', args: ARGS, type: 'tool_call' as const };

function aiSdkRows(app: INestApplicationContext): Record<Variant, () => Promise<unknown>> {
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'lookup',
          input: JSON.stringify(ARGS),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
  const bare = {
    lookup: aiTool({
      description: 'Benchmark tool.',
      inputSchema: jsonSchema<LookupArgs>(CITY_SCHEMA),
      execute: lookupBody,
    }),
  };
  const catalog = { registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) };
  const shielded = shieldAiSdkTools(bare);
  const served = toAiSdkTools(catalog, { only: ['lookup'] });
  const once = (tools: ToolSet) => () => generateText({ model, tools, prompt: 'Weather?' });
  const alone = (tools: ToolSet) => async () =>
    tools['lookup']?.execute?.(ARGS, { toolCallId: 'call_1', messages: [], context: {} });
  return {
    bare: once(bare),
    shielded: once(shielded),
    executor: once(served),
    'bare-alone': alone(bare),
    'shielded-alone': alone(shielded),
    'executor-alone': alone(served),
  };
}

function agentsRows(app: INestApplicationContext): Record<Variant, () => Promise<unknown>> {
  const model: Model = {
    getResponse: async (request) => {
      const answered =
        Array.isArray(request.input) &&
        request.input.some((item) => item.type === 'function_call_result');
      return {
        usage: new Usage(),
        output: answered
          ? [assistantMessage('done')]
          : [functionCall('lookup', ARGS, { callId: 'call_1' })],
      };
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
  const bare = agentsTool({
    name: 'lookup',
    description: 'Benchmark tool.',
    parameters: CITY_SCHEMA,
    strict: false,
    errorFunction: null,
    execute: (input) => lookupBody(input as LookupArgs),
  });
  const runner = new Runner({ tracingDisabled: true });
  const catalog = { registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) };
  const once = (tools: Agent['tools']) => {
    const agent = new Agent({ name: 'bench', model, tools });
    return () => runner.run(agent, 'Weather?');
  };
  const shielded = shieldAgentsTool(bare);
  const served = toAgentsTools(catalog, { only: ['lookup'] });
  const alone = (functionTool: typeof bare) => () =>
    functionTool.invoke(new RunContext(), JSON.stringify(ARGS));
  return {
    bare: once([bare]),
    shielded: once([shielded]),
    executor: once(served),
    'bare-alone': alone(bare),
    'shielded-alone': alone(shielded),
    'executor-alone': () => served[0]?.invoke(new RunContext(), JSON.stringify(ARGS)),
  };
}

function langChainRows(app: INestApplicationContext): Record<Variant, () => Promise<unknown>> {
  const bare = new DynamicStructuredTool({
    name: 'lookup',
    description: 'Benchmark tool.',
    schema: CITY_SCHEMA,
    func: (input: LookupArgs) => lookupBody(input),
  });
  const request = { messages: [new AIMessage({ content: '', tool_calls: [ARGS_CALL] })] };
  const catalog = { registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) };
  const once = (node: ToolNode) => () => node.invoke(request);
  const shielded = shieldLangChainTool(bare);
  const served = toLangChainTools(catalog, { only: ['lookup'] });
  return {
    bare: once(new ToolNode([bare])),
    shielded: once(new ToolNode([shielded])),
    executor: once(new ToolNode(served)),
    'bare-alone': () => bare.invoke({ ...ARGS_CALL }),
    'shielded-alone': () => shielded.invoke({ ...ARGS_CALL }),
    'executor-alone': async () => served[0]?.invoke({ ...ARGS_CALL }),
  };
}

/** Runs every adapter row; each framework's rows share rounds so their ratios are paired. */
export async function runAdapters(log: (line: string) => void): Promise<AdapterReport> {
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  try {
    const perFramework = {
      'ai-sdk': aiSdkRows(app),
      'openai-agents': agentsRows(app),
      langchain: langChainRows(app),
    };
    const rows: Row[] = FRAMEWORKS.flatMap((framework) =>
      VARIANTS.map((variant) => ({
        id: `${framework}:${variant}`,
        label: `${framework} ${variant}`,
        once: perFramework[framework][variant],
      })),
    );
    for (const row of rows) await row.once();
    const rounds = new Map<string, number[]>(rows.map((row) => [row.id, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const bench = new Bench({ time: TIME_MS, warmupTime: 200, iterations: 20, throws: true });
      for (const row of rows.map((_, i) => rows[(i + round * 2) % rows.length])) {
        bench.add(row.id, async () => {
          for (let i = 0; i < BATCH; i++) await row.once();
        });
      }
      await bench.run();
      for (const task of bench.tasks) {
        if (task.result.state !== 'completed')
          throw new Error(`${task.name}: ${task.result.state}`);
        rounds.get(task.name)?.push((task.result.latency.p50 * 1000) / BATCH);
      }
      log(`adapters round ${round + 1}/${ROUNDS} done`);
    }
    const of = (framework: Framework, variant: Variant) =>
      rounds.get(`${framework}:${variant}`) ?? [];
    const paired = (framework: Framework, variant: Variant, reference: Variant) =>
      median(of(framework, variant).map((value, i) => value / of(framework, reference)[i]));
    const byFramework = <T>(build: (framework: Framework) => T) =>
      Object.fromEntries(FRAMEWORKS.map((framework) => [framework, build(framework)])) as Record<
        Framework,
        T
      >;
    return {
      rows: byFramework(
        (framework) =>
          Object.fromEntries(
            VARIANTS.map((variant) => [variant, median(of(framework, variant))]),
          ) as Record<Variant, number>,
      ),
      ratios: byFramework((framework) => ({
        shielded: paired(framework, 'shielded', 'bare'),
        executor: paired(framework, 'executor', 'bare'),
        'shielded-alone': paired(framework, 'shielded-alone', 'bare-alone'),
        'executor-alone': paired(framework, 'executor-alone', 'bare-alone'),
      })),
    };
  } finally {
    await app.close();
  }
}

/**
 * The Markdown section. What a wrapper adds is measured on the tool alone (called as the
 * framework calls it, outside the loop), where it is not lost in the framework's own noise:
 * the framework's work around the call is the same with or without the wrapper. Goal: that
 * added cost ≤ 0.5 × the framework's own per-call cost (so the wrapped call ≤ 1.5× it), or
 * ≤ 5 µs, whichever allows more. The whole-loop ratios are shown as measured.
 */
export function adaptersTable(report: AdapterReport): string {
  const lines = [
    '| Framework | one tool call through it, bare µs | tool alone, bare µs | shield adds µs | via ToolExecutor adds µs | whole loop: shielded × bare | whole loop: via ToolExecutor × bare | goal |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const framework of FRAMEWORKS) {
    const row = report.rows[framework];
    const ratios = report.ratios[framework];
    const added = (variant: 'shielded-alone' | 'executor-alone') =>
      (ratios[variant] - 1) * row['bare-alone'];
    const allowed = Math.max(5, 0.5 * row.bare);
    const met = added('shielded-alone') <= allowed && added('executor-alone') <= allowed;
    lines.push(
      `| ${framework} | ${us(row.bare)} | ${us(row['bare-alone'])} | ${us(added('shielded-alone'))} | ${us(added('executor-alone'))} | ${ratio(ratios.shielded)} | ${ratio(ratios.executor)} | ${met ? 'met' : 'NOT met'} |`,
    );
  }
  return lines.join('\n');
}

/**
 * What the approval gate costs a call that needs no approval (issue 36's bound: under 0.5 µs
 * per call for a tool with `needsApproval: false`). Two measures:
 *
 * - the gate's own step on every call (`ToolExecutor` hands each call to the gate, which
 *   looks at the tool's `needsApproval` and runs its pipeline): timed in isolation, a million
 *   calls through the gate against a million straight to the same pipeline function, which
 *   answers at once, so the difference is the gate and nothing else;
 * - whole calls through the executor (see rounds.ts): a tool without `needsApproval`, the
 *   same tool with `needsApproval: false` (not wrapped at all), and with a policy that waives
 *   every call (wrapped: the gate asks the policy once per call, then runs the method).
 *
 * Runs inside `npm run bench`, or alone: `node tools/dist/bench/approval-overhead.js`.
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ToolCallContext, ToolOutcome } from '@toolshield/core';
import {
  Tool,
  ToolArgs,
  ToolCall,
  ToolExecutor,
  ToolShieldModule,
  type RegisteredTool,
} from '@toolshield/nest';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { lookupBody, type LookupArgs } from './fixtures.js';
import { timeRows, type Row, type RowResult } from './rounds.js';
import { median, us } from './stats.js';

/** The bound issue 36 sets, in µs per call. */
const BOUND_US = 0.5;
const GATE_CALLS = 1_000_000;
const GATE_ROUNDS = 7;

@Injectable()
class ApprovalBenchTools {
  @Tool({ name: 'plain', description: 'No needsApproval.' })
  async plain(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({ name: 'never_asks', description: 'needsApproval: false.', needsApproval: false })
  async neverAsks(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({
    name: 'waived',
    description: 'A policy that waives every call.',
    needsApproval: () => false,
  })
  async waived(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }
}

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [ApprovalBenchTools] })
class ApprovalBenchModule {}

/** The gate's step, as the executor takes it (`ToolExecutor`'s private `gate`). */
interface GateStep {
  invoke(
    tool: RegisteredTool,
    args: unknown,
    call: ToolCallContext,
    options: object,
  ): Promise<unknown>;
}

export interface ApprovalOverheadReport {
  /** The gate's step per call, µs: median over rounds of (through the gate − straight). */
  readonly gateStepUs: number;
  readonly gateStepRounds: readonly number[];
  readonly rows: readonly RowResult[];
  /** Whole-call difference, `needsApproval: false` − none, µs (noise of the rows included). */
  readonly falseVsNoneUs: number;
  readonly met: boolean;
}

/** µs per call of `run` over {@link GATE_CALLS} calls (awaiting each, as the executor does). */
async function perCall(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < GATE_CALLS; i++) await run();
  return ((performance.now() - started) * 1000) / GATE_CALLS;
}

export async function runApprovalOverhead(
  log: (line: string) => void,
): Promise<ApprovalOverheadReport> {
  const app = await NestFactory.createApplicationContext(ApprovalBenchModule, { logger: false });
  await app.init();
  const executor = app.get(ToolExecutor);
  const gate = (executor as unknown as { gate: GateStep }).gate;
  const answered = Promise.resolve({ city: 'Paris', tempC: 18 });
  const tool = { options: { description: 'x', needsApproval: false }, invoke: () => answered };
  const call = { callId: 'call_bench', toolName: 'x', attempt: 1, metadata: {} } as ToolCallContext;
  const args = { city: 'Paris' };
  const options = {};
  const gateStepRounds: number[] = [];
  for (let round = 0; round < GATE_ROUNDS; round++) {
    const straight = await perCall(() => tool.invoke());
    const gated = await perCall(() =>
      gate.invoke(tool as unknown as RegisteredTool, args, call, options),
    );
    gateStepRounds.push(gated - straight);
  }
  const gateStepUs = median(gateStepRounds);
  log(
    `approval gate step: ${ns(gateStepUs)} per call, rounds ${gateStepRounds.map(ns).join(', ')}`,
  );

  const json = JSON.stringify({ city: 'Paris' });
  const once = (name: string) => () =>
    executor.execute({ id: 'call_bench', name, arguments: json }).then(succeeded);
  const rows: Row[] = [
    { id: 'plain', label: 'tool without needsApproval', once: once('plain') },
    { id: 'never', label: 'the same tool, needsApproval: false', once: once('never_asks') },
    { id: 'waived', label: 'the same tool, a policy that waives every call', once: once('waived') },
  ];
  for (const row of rows) await row.once();
  const { results } = await timeRows(rows, log);
  await app.close();
  const p50 = (id: string) => results.find((row) => row.id === id)?.p50 ?? Number.NaN;
  return {
    gateStepUs,
    gateStepRounds,
    rows: results,
    falseVsNoneUs: p50('never') - p50('plain'),
    met: gateStepUs < BOUND_US,
  };
}

/** µs as nanoseconds, for steps below the µs tables' resolution. */
function ns(valueUs: number): string {
  return `${(valueUs * 1000).toFixed(1)} ns`;
}

function succeeded(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.success) throw new Error(`Benchmark call failed: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The report as Markdown. */
export function approvalOverheadTable(report: ApprovalOverheadReport): string {
  return [
    'Approval gate on calls that need no approval:',
    '',
    '| Row | median µs/call | spread of round medians |',
    '|---|---:|---:|',
    ...report.rows.map(
      (row) => `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} |`,
    ),
    '',
    `Bound (added cost per call of a tool with needsApproval: false < ${BOUND_US} µs): the gate's step costs ${ns(report.gateStepUs)} per call in isolation (${report.met ? 'met' : 'NOT met'}); whole calls, needsApproval: false − none = ${us(report.falseVsNoneUs)} µs (row noise included).`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  process.stdout.write(`${approvalOverheadTable(await runApprovalOverhead(log))}\n`);
}

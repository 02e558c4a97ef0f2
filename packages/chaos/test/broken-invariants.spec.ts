import { describe, expect, it } from '@jest/globals';
import { ToolExecutor } from '@toolshield/nest';
import { readFile } from 'node:fs/promises';
import { runChaosCli } from '../src/cli/run-chaos-cli.js';
import { rateLimit } from '../src/faults/rate-limit.fault.js';
import type { ChaosScenario } from '../src/harness/chaos-scenario.js';
import { runChaosHarness } from '../src/harness/run-chaos-harness.js';
import { runChaosHarnessInJest } from '../src/jest/run-chaos-harness-in-jest.js';
import { EagerRetryAppModule, LeakyAppModule, RejectingExecutor } from './fixtures/broken-app.js';
import brokenConfig from './fixtures/broken.chaos-config.js';

const limited: ChaosScenario = {
  name: 'rate limited search',
  rules: [{ fault: rateLimit({ retryAfterSeconds: 5 }), probability: 0.5 }],
  calls: [{ tool: 'leaky_search', arguments: { q: 'x' } }],
  count: 20,
};

const invariantsOf = (report: Awaited<ReturnType<typeof runChaosHarness>>) =>
  new Set(
    report.scenarios.flatMap((s) =>
      s.seeds.flatMap((seed) => seed.violations.map((v) => v.invariant)),
    ),
  );

describe('the harness fails a broken application', () => {
  it('reports leaked timers as "nothing left running"', async () => {
    const report = await runChaosHarness({
      module: LeakyAppModule,
      seeds: [1],
      scenarios: [limited],
    });
    expect(report.status).toBe('FAIL');
    expect([...invariantsOf(report)]).toEqual(['nothing_left_running']);
  });

  it('catches a home-made retry that ignores Retry-After and the retry limit', async () => {
    const report = await runChaosHarness({
      module: EagerRetryAppModule,
      seeds: [1, 2],
      scenarios: [limited],
    });
    expect(invariantsOf(report)).toEqual(
      new Set(['attempts_within_retry_max', 'retry_after_honoured', 'nothing_left_running']),
    );
  });

  it('catches an executor that rejects, and a call without a result', async () => {
    const report = await runChaosHarness({
      module: LeakyAppModule,
      seeds: [1],
      scenarios: [{ ...limited, rules: [] }],
      configure: (builder) =>
        builder.overrideProvider(ToolExecutor).useValue(new RejectingExecutor()),
    });
    expect(invariantsOf(report)).toEqual(new Set(['executor_never_threw', 'exactly_one_result']));
  });

  it('makes the CLI print FAIL, write the reports and exit non-zero', async () => {
    const lines: string[] = [];
    const code = await runChaosCli(['run', 'test/fixtures/broken.chaos-config.ts'], {
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines[0]).toMatch(
      /^FAIL leaky search under rate limits \(2 seeds, 40 calls, .*nothing_left_running/,
    );
    expect(lines.at(-1)).toBe('chaos: 0 passed, 1 failed');
    const junit = await readFile(`${brokenConfig.reports.dir}/chaos-junit.xml`, 'utf8');
    expect(junit).toContain('<failure');
  });

  it('makes the Jest helper reject with the violations', async () => {
    await expect(
      runChaosHarnessInJest({ module: LeakyAppModule, seeds: [3], scenarios: [limited] }),
    ).rejects.toThrow(
      /chaos: 0 passed, 1 failed\nFAIL rate limited search\n {2}seed 3 nothing_left_running/,
    );
  });

  it('answers a bad command line with usage and exit code 2', async () => {
    const errors: string[] = [];
    const output = { log: () => undefined, error: (line: string) => errors.push(line) };
    expect(await runChaosCli(['go'], output)).toBe(2);
    expect(await runChaosCli(['run', 'test/fixtures/missing.config.js'], output)).toBe(2);
    expect(errors).toEqual([
      'chaos: unknown command "go"',
      'usage: toolshield-chaos run <config.js> [options] (see --help)',
      expect.stringMatching(/^chaos: cannot load test\/fixtures\/missing.config.js: /),
    ]);
  });
});

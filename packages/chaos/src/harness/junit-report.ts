import type { ChaosRunReport, ScenarioReport, SeedRunReport } from './chaos-report.js';
import { stringifySafely } from './safe-json.js';
import { escapeXml } from './xml-text.js';

/**
 * The report as JUnit XML for CI: one `<testsuite>` per scenario, one `<testcase>` per
 * scenario × seed (`name [seed N]`); a failing seed carries a `<failure>` listing its
 * violations, and every test case puts its breakdown (retry counts, outcomes by type, breaker
 * openings, latency percentiles) and samples in `<system-out>`. Each suite's `<properties>`
 * hold the scenario's breakdown: `outcomes.<type>`, `retries.<n>` (calls retried n times),
 * `breaker.openings`, `latency.p50Ms`, `latency.p95Ms`, `latency.p99Ms`, `latency.maxMs`.
 *
 * @publicApi
 */
export function toJUnitXml(report: ChaosRunReport): string {
  const failures = report.scenarios.reduce((sum, scenario) => sum + failedSeeds(scenario), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="toolshield chaos" tests="${report.totals.seedRuns}" failures="${failures}" errors="0" ` +
      `time="${seconds(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    ...report.scenarios.flatMap((scenario) => suite(scenario, report.startedAt)),
    '</testsuites>',
    '',
  ].join('\n');
}

function suite(scenario: ScenarioReport, timestamp: string): string[] {
  const time = scenario.seeds.reduce((sum, seed) => sum + seed.durationMs, 0);
  return [
    `  <testsuite name="${escapeXml(scenario.name)}" tests="${scenario.seeds.length}" ` +
      `failures="${failedSeeds(scenario)}" errors="0" skipped="0" time="${seconds(time)}" ` +
      `timestamp="${escapeXml(timestamp)}">`,
    ...properties(scenario),
    ...scenario.seeds.flatMap((seed) => testCase(scenario.name, seed)),
    '  </testsuite>',
  ];
}

function properties(scenario: ScenarioReport): string[] {
  const values: [string, number][] = [
    ...Object.entries(scenario.outcomes).map(([kind, count]): [string, number] => [
      `outcomes.${kind}`,
      count,
    ]),
    ...Object.entries(scenario.retryCounts).map(([retries, count]): [string, number] => [
      `retries.${retries}`,
      count,
    ]),
    ['breaker.openings', scenario.breakerOpenings],
    ['latency.p50Ms', scenario.latencyMs.p50],
    ['latency.p95Ms', scenario.latencyMs.p95],
    ['latency.p99Ms', scenario.latencyMs.p99],
    ['latency.maxMs', scenario.latencyMs.max],
  ];
  return [
    '    <properties>',
    ...values.map(
      ([name, value]) => `      <property name="${escapeXml(name)}" value="${value}"/>`,
    ),
    '    </properties>',
  ];
}

function testCase(scenario: string, seed: SeedRunReport): string[] {
  const open =
    `    <testcase name="${escapeXml(`${scenario} [seed ${seed.seed}]`)}" ` +
    `classname="${escapeXml(`toolshield.chaos.${scenario}`)}" time="${seconds(seed.durationMs)}">`;
  const failure =
    seed.status === 'FAIL'
      ? [
          `      <failure message="${escapeXml(`${seed.violations.length} invariant violation(s)`)}" ` +
            `type="${escapeXml(seed.violations[0]?.invariant ?? 'invariant')}">` +
            escapeXml(seed.violations.map((v) => `[${v.invariant}] ${v.message}`).join('\n')) +
            '</failure>',
        ]
      : [];
  const output = stringifySafely({
    retryCounts: seed.retryCounts,
    outcomes: seed.outcomes,
    breakerOpenings: seed.breakerOpenings,
    latencyMs: seed.latencyMs,
    samples: seed.samples,
  });
  return [
    open,
    ...failure,
    `      <system-out>${escapeXml(output)}</system-out>`,
    '    </testcase>',
  ];
}

function failedSeeds(scenario: ScenarioReport): number {
  return scenario.seeds.filter((seed) => seed.status === 'FAIL').length;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

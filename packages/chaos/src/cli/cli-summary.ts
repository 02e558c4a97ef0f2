import type { ChaosRunReport, ScenarioReport } from '../harness/chaos-report.js';
import { describeCounts, formatMs, retryColumns } from '../harness/breakdown-text.js';
import { textTable } from './text-table.js';

/** `PASS name (seeds, calls, breaker openings)` or `FAIL name (...; the first violation)`. */
export function scenarioLine(scenario: ScenarioReport): string {
  const facts =
    `${scenario.seeds.length} seeds, ${scenario.calls} calls, ` +
    `breaker opened ${scenario.breakerOpenings}x`;
  if (scenario.status === 'PASS') return `PASS ${scenario.name} (${facts})`;
  const failed = scenario.seeds.filter((seed) => seed.status === 'FAIL');
  const first = failed[0]?.violations[0];
  return `FAIL ${scenario.name} (${facts}; ${failed.length} seed(s) failed, first: seed ${failed[0]?.seed} ${first?.invariant}: ${first?.message})`;
}

/**
 * The run's breakdown as plain-text tables: calls per retry count, then outcomes by type,
 * breaker openings and latency percentiles (virtual time), one row per scenario.
 */
export function summaryTables(report: ChaosRunReport): string[] {
  const scenarios = report.scenarios;
  const retries = retryColumns(...scenarios.map((scenario) => scenario.retryCounts));
  return [
    'calls by retries made:',
    ...textTable(
      ['scenario', ...retries.map((count) => `${count} retries`)],
      scenarios.map((scenario) => [
        scenario.name,
        ...retries.map((count) => String(scenario.retryCounts[count] ?? 0)),
      ]),
    ),
    '',
    'outcomes, breaker openings and call latency (virtual time):',
    ...textTable(
      ['scenario', 'breaker opened', 'p50', 'p95', 'p99', 'outcomes'],
      scenarios.map((scenario) => [
        scenario.name,
        String(scenario.breakerOpenings),
        formatMs(scenario.latencyMs.p50),
        formatMs(scenario.latencyMs.p95),
        formatMs(scenario.latencyMs.p99),
        describeCounts(scenario.outcomes),
      ]),
    ),
    '',
    `outcomes: ${describeCounts(report.totals.outcomes)}; breaker opened ${report.totals.breakerOpenings}x`,
  ];
}

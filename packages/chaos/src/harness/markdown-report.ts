import { describeCounts, formatMs, retryColumns } from './breakdown-text.js';
import type { ChaosRunReport } from './chaos-report.js';

/**
 * The report as Markdown: a summary line, one table row per scenario (PASS/FAIL, seeds,
 * failing seeds, calls, violations), a breakdown per scenario (outcomes by type, calls by
 * retries made, breaker openings, latency percentiles in clock time, virtual in the harness),
 * then the violations of each failing seed.
 *
 * @publicApi
 */
export function toMarkdownReport(report: ChaosRunReport): string {
  const { totals } = report;
  const lines = [
    `# Chaos run: ${report.status}`,
    '',
    `${totals.passed}/${totals.scenarios} scenarios passed, ${totals.seedRuns} seed runs, ` +
      `${totals.calls} calls, started ${report.startedAt}, ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    '| Scenario | Status | Seeds | Failing seeds | Calls | Violations |',
    '| --- | --- | ---: | --- | ---: | ---: |',
    ...report.scenarios.map((scenario) => {
      const failing = scenario.seeds.filter((seed) => seed.status === 'FAIL');
      const violations = scenario.seeds.reduce((sum, seed) => sum + seed.violations.length, 0);
      return `| ${cell(scenario.name)} | ${scenario.status} | ${scenario.seeds.length} | ${
        failing.map((seed) => seed.seed).join(', ') || '-'
      } | ${scenario.calls} | ${violations} |`;
    }),
    '',
    `Outcomes: ${describeCounts(totals.outcomes)}. Breaker openings: ${totals.breakerOpenings}.`,
    ...breakdown(report),
  ];
  for (const scenario of report.scenarios) {
    for (const seed of scenario.seeds.filter((run) => run.status === 'FAIL')) {
      lines.push('', `## ${cell(scenario.name)}, seed ${seed.seed}`, '');
      for (const violation of seed.violations) {
        lines.push(`- \`${violation.invariant}\`: ${cell(violation.message)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function breakdown(report: ChaosRunReport): string[] {
  const retries = retryColumns(...report.scenarios.map((scenario) => scenario.retryCounts));
  return [
    '',
    '## Breakdown',
    '',
    `| Scenario | Outcomes | ${retries.map((count) => `${count} retries`).join(' | ')} | Breaker openings | p50 | p95 | p99 |`,
    `| --- | --- | ${retries.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: |`,
    ...report.scenarios.map(
      (scenario) =>
        `| ${cell(scenario.name)} | ${describeCounts(scenario.outcomes)} | ${retries
          .map((count) => scenario.retryCounts[count] ?? 0)
          .join(
            ' | ',
          )} | ${scenario.breakerOpenings} | ${formatMs(scenario.latencyMs.p50)} | ${formatMs(
          scenario.latencyMs.p95,
        )} | ${formatMs(scenario.latencyMs.p99)} |`,
    ),
  ];
}

/** Keeps a value on one table line: pipes escaped, line breaks as spaces. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, ' ');
}

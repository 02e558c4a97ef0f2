import type { ChaosRunReport } from './chaos-report.js';

/**
 * The report as Markdown: a summary line, one table row per scenario (PASS/FAIL, seeds,
 * failing seeds, calls, violations), then the violations of each failing seed.
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

/** Keeps a value on one table line: pipes escaped, line breaks as spaces. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, ' ');
}

import type { ChaosRunReport } from '../harness/chaos-report.js';
import type { ChaosHarnessConfig } from '../harness/chaos-harness-config.js';
import { runChaosHarness } from '../harness/run-chaos-harness.js';
import { writeChaosReports } from '../harness/write-chaos-reports.js';

/**
 * Runs the harness inside a test (Jest, or any runner that fails a test on a rejection):
 * resolves with the report when every scenario passed, and rejects otherwise with a message
 * listing each failed scenario, seed and violation. Reports are written when `config.reports`
 * is set, pass or fail.
 *
 * @example
 * it('survives chaos', () => runChaosHarnessInJest({ module: AppModule, scenarios, seeds: 5 }), 60_000);
 *
 * @publicApi
 */
export async function runChaosHarnessInJest(config: ChaosHarnessConfig): Promise<ChaosRunReport> {
  const report = await runChaosHarness(config);
  if (config.reports) await writeChaosReports(report, config.reports.dir, config.reports.formats);
  if (report.status === 'PASS') return report;
  const lines = report.scenarios
    .filter((scenario) => scenario.status === 'FAIL')
    .flatMap((scenario) => [
      `FAIL ${scenario.name}`,
      ...scenario.seeds
        .filter((seed) => seed.status === 'FAIL')
        .flatMap((seed) =>
          seed.violations
            .slice(0, 5)
            .map((violation) => `  seed ${seed.seed} ${violation.invariant}: ${violation.message}`),
        ),
    ]);
  throw new Error(
    `chaos: ${report.totals.passed} passed, ${report.totals.failed} failed\n${lines.join('\n')}`,
  );
}

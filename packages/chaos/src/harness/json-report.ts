import type { ChaosRunReport } from './chaos-report.js';
import { stringifySafely } from './safe-json.js';

/**
 * The report as JSON. Samples are whatever the tools produced, so values JSON cannot hold
 * are written readably instead of failing the report: a BigInt as `"123n"`, a reference
 * back to an enclosing object as `"[Circular]"`.
 *
 * @publicApi
 */
export function toJsonReport(report: ChaosRunReport, space = 2): string {
  return stringifySafely(report, space);
}

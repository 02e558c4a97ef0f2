import type { RunEvent } from '../runs/run-event.js';

/** The figures of one run for the demo's closing table. */
export interface RunSummary {
  readonly name: string;
  readonly status: string;
  readonly calls: number;
  readonly attempts: number;
  readonly retries: number;
  /** Failed attempts by error type. */
  readonly failures: Readonly<Record<string, number>>;
  readonly breakerOpenings: number;
  readonly durationMs: number;
}

/** Counts a run's calls, attempts, retries, failures by type and breaker openings from its events. */
export function summariseRun(name: string, events: readonly RunEvent[]): RunSummary {
  const failures: Record<string, number> = {};
  let calls = 0;
  let retries = 0;
  let breakerOpenings = 0;
  let status = 'running';
  const withFailedAttempts = new Set<string>();
  const count = (type: string) => (failures[type] = (failures[type] ?? 0) + 1);
  for (const { data } of events) {
    if (data.type === 'call.started') calls += 1;
    else if (data.type === 'retry.scheduled') retries += 1;
    else if (data.type === 'attempt.failed') {
      withFailedAttempts.add(data.callId);
      count(data.errorType);
    } else if (data.type === 'call.failed' && !withFailedAttempts.has(data.callId)) {
      // A call without a retry policy reports no attempts: its one failure is the call's. A
      // call that waits for approval has not failed: it has not run yet.
      if (data.failure.errorType !== 'approval_pending') count(data.failure.errorType);
    } else if (data.type === 'breaker.state_changed' && data.to === 'open') breakerOpenings += 1;
    else if (data.type === 'run.finished') status = data.status;
  }
  const durationMs = (events.at(-1)?.at ?? 0) - (events[0]?.at ?? 0);
  return {
    name,
    status,
    calls,
    attempts: calls + retries,
    retries,
    failures,
    breakerOpenings,
    durationMs,
  };
}

/** The columns of the demo's closing table (and of the dashboard's). */
export const SUMMARY_COLUMNS = [
  'scenario',
  'status',
  'calls',
  'attempts',
  'retries',
  'breaker openings',
  'duration',
  'failures by type',
] as const;
const COLUMNS = SUMMARY_COLUMNS;

function failureText(failures: Readonly<Record<string, number>>): string {
  const entries = Object.entries(failures).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '-' : entries.map(([type, count]) => `${type} ${count}`).join(', ');
}

/** The summaries added up, as the table's total row (named `total`, no status). */
export function summaryTotal(summaries: readonly RunSummary[]): RunSummary {
  const total = summaries.reduce(
    (sum, row) => ({
      calls: sum.calls + row.calls,
      attempts: sum.attempts + row.attempts,
      retries: sum.retries + row.retries,
      breakerOpenings: sum.breakerOpenings + row.breakerOpenings,
      durationMs: sum.durationMs + row.durationMs,
      failures: Object.entries(row.failures).reduce<Record<string, number>>(
        (all, [type, count]) => ({ ...all, [type]: (all[type] ?? 0) + count }),
        sum.failures,
      ),
    }),
    {
      calls: 0,
      attempts: 0,
      retries: 0,
      breakerOpenings: 0,
      durationMs: 0,
      failures: {} as Record<string, number>,
    },
  );
  return { ...total, name: 'total', status: '' };
}

/** One row of the table as text, a cell per {@link SUMMARY_COLUMNS}. */
export function summaryCells(row: RunSummary): string[] {
  return [
    row.name,
    row.status,
    String(row.calls),
    String(row.attempts),
    String(row.retries),
    String(row.breakerOpenings),
    `${(row.durationMs / 1_000).toFixed(2)} s`,
    failureText(row.failures),
  ];
}

/** The summaries as a plain-text table, with a total row. */
export function formatSummaryTable(summaries: readonly RunSummary[]): string {
  const rows = [...summaries, summaryTotal(summaries)].map(summaryCells);
  const widths = COLUMNS.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join(' │ ')
      .trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join('─┼─');
  return [line(COLUMNS), rule, ...rows.slice(0, -1).map(line), rule, line(rows.at(-1) ?? [])].join(
    '\n',
  );
}

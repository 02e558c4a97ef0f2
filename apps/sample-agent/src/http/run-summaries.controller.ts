import { Controller, Get, Inject, Query } from '@nestjs/common';
import { SUMMARY_COLUMNS, summariseRun, summaryCells, summaryTotal } from '../demo/run-summary.js';
import { RUN_STORE, type RunStore } from '../runs/run-store.js';

/** How many of the newest runs `GET /api/run-summaries` sums up. */
const SUMMARISED_RUNS = 50;

/** What `GET /api/run-summaries` answers: the demo's closing table, as cells. */
export interface RunSummaryTable {
  readonly columns: readonly string[];
  /** One row per run, newest first: its id and its cells. */
  readonly rows: readonly { readonly id: string; readonly cells: readonly string[] }[];
  readonly total: readonly string[];
}

/**
 * `GET /api/run-summaries[?status=]`: the console demo's summary table (calls, attempts,
 * retries, breaker openings, duration, failures by type) for the newest runs, those with
 * `status` when given, with a total row.
 */
@Controller('api/run-summaries')
export class RunSummariesController {
  constructor(@Inject(RUN_STORE) private readonly store: RunStore) {}

  @Get()
  async table(@Query('status') status?: string): Promise<RunSummaryTable> {
    const runs = (await this.store.listRuns(SUMMARISED_RUNS)).filter(
      (run) => !status || run.status === status,
    );
    const summaries = await Promise.all(
      runs.map(async (run) => ({
        id: run.id,
        // The store's status: a run still going has no `run.finished` event yet.
        summary: {
          ...summariseRun(run.scenario ?? 'free task', await this.store.events(run.id)),
          status: run.status,
        },
      })),
    );
    return {
      columns: ['run', ...SUMMARY_COLUMNS],
      rows: summaries.map(({ id, summary }) => ({
        id,
        cells: [id.slice(0, 8), ...summaryCells(summary)],
      })),
      total: ['', ...summaryCells(summaryTotal(summaries.map(({ summary }) => summary)))],
    };
  }
}

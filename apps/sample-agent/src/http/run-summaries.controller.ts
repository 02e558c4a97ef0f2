import { Controller, Get, Inject } from '@nestjs/common';
import { summariseRun, type RunSummary } from '../demo/run-summary.js';
import { RUN_STORE, type RunStore } from '../runs/run-store.js';

/** How many of the newest runs `GET /api/run-summaries` sums up. */
const SUMMARISED_RUNS = 50;

/** A run's figures for the dashboard's table: the demo's closing table, per run. */
export interface RunSummaryRow extends RunSummary {
  readonly id: string;
}

/** `GET /api/run-summaries`: the console demo's summary figures for the newest runs. */
@Controller('api/run-summaries')
export class RunSummariesController {
  constructor(@Inject(RUN_STORE) private readonly store: RunStore) {}

  @Get()
  async list(): Promise<RunSummaryRow[]> {
    const runs = await this.store.listRuns(SUMMARISED_RUNS);
    return Promise.all(
      runs.map(async (run) => ({
        id: run.id,
        ...summariseRun(run.scenario ?? 'free task', await this.store.events(run.id)),
        // The store's status: a run still going has no `run.finished` event yet.
        status: run.status,
      })),
    );
  }
}

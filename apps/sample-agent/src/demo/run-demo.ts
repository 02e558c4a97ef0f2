import type { INestApplicationContext } from '@nestjs/common';
import { MODEL_SELECTOR, type ModelSelector } from '../agent/select-model.js';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import { RunEventHub } from '../runs/run-event-hub.js';
import { isRunFinished, type RunEvent } from '../runs/run-event.js';
import { SCENARIOS } from '../scenarios/index.js';
import { formatSummaryTable, summariseRun, type RunSummary } from './run-summary.js';
import { traceLine } from './trace-line.js';

/** The scenarios `npm start` runs, in order: every recoverable kind of failure, and the fatal one. */
export const DEMO_SCENARIOS = [
  'trip',
  'web-research',
  'slow-web',
  'kube-missing-namespace',
  'kube-deploy-forbidden',
  'read-file',
  'calculator',
  'ask-user',
  'outage',
] as const;

/** What the demo did. */
export interface DemoResult {
  readonly summaries: readonly RunSummary[];
  /** Whether every run ended the way its scenario should (recoverable: completed; fatal: stopped). */
  readonly asExpected: boolean;
}

/** Runs one scenario through the app's runs service, writing its trace as the events arrive. */
async function runScenario(
  app: INestApplicationContext,
  name: string,
  write: (line: string) => void,
): Promise<RunSummary> {
  const scenario = SCENARIOS.get(name);
  if (!scenario) throw new Error(`No scenario ${name}.`);
  const run = await app.get(AgentRunsService).start({ task: scenario.task, scenario: name });
  const events: RunEvent[] = [];
  await new Promise<void>((resolve) => {
    void app.get(RunEventHub).subscribe(run.id, 0, (event) => {
      events.push(event);
      const line = traceLine(event);
      if (line !== undefined) write(line);
      if (isRunFinished(event)) resolve();
    });
  });
  return summariseRun(name, events);
}

/**
 * The demo: each of {@link DEMO_SCENARIOS} as an agent run on the app (chaos as the app was
 * started with), the trace printed live, then a table of calls, attempts, retries, failures by
 * type, breaker openings and durations.
 */
export async function runDemo(
  app: INestApplicationContext,
  write: (line: string) => void,
): Promise<DemoResult> {
  write('toolshield sample agent: the demo');
  write(`model: ${app.get<ModelSelector>(MODEL_SELECTOR).label}`);
  const summaries: RunSummary[] = [];
  for (const name of DEMO_SCENARIOS) {
    write('');
    summaries.push(await runScenario(app, name, write));
  }
  write('');
  write(formatSummaryTable(summaries));
  const asExpected = summaries.every((summary) => {
    const recoverable = SCENARIOS.get(summary.name)?.recoverable ?? true;
    return summary.status === (recoverable ? 'completed' : 'stopped');
  });
  return { summaries, asExpected };
}

import type { ToolCallContext } from '@toolshield/nest';
import { RUN_ID_HEADER } from '../upstream/route-plans.js';

/** What a call carries about its run (`ToolCallContext.metadata`). */
type CallMetadata = Pick<ToolCallContext, 'metadata'>;

const RUN_ID = /^[\w-]{1,100}$/;

/**
 * The agent run a call belongs to (`metadata.runId`, set by the runs service), if any: the
 * scope of what the run's tools keep for it alone (its notes, its cluster, its upstream plan).
 */
export function runIdOf(call: CallMetadata): string | undefined {
  const runId = call.metadata['runId'];
  return typeof runId === 'string' && RUN_ID.test(runId) ? runId : undefined;
}

/** The headers that have the fixture upstream answer a call by its run's plan. */
export function runHeaders(call: CallMetadata): Record<string, string> {
  const runId = runIdOf(call);
  return runId === undefined ? {} : { [RUN_ID_HEADER]: runId };
}

/**
 * The key of a breaker kept per run: its run's lane (`metadata.lane`, a small number the
 * runs service gives each live run and reuses once the run ended, so the number of breakers
 * and metric series stays bounded by the runs at once), or `shared` for calls outside a run.
 */
export function runLaneKey(lane: unknown): string {
  return typeof lane === 'number' ? `lane-${lane}` : 'shared';
}

/** The lane a breaker key of {@link runLaneKey} names (`news_search:lane-2`: 2), if any. */
export function laneOfBreakerKey(key: string): number | undefined {
  const lane = /:lane-(\d+)$/.exec(key)?.[1];
  return lane === undefined ? undefined : Number(lane);
}

/** {@link runLaneKey} of a call: the `breaker.key` of tools whose breaker is per run. */
export function breakerKeyPerRun(call: CallMetadata): string {
  return runLaneKey(call.metadata['lane']);
}

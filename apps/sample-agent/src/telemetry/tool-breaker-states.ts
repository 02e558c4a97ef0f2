import type { CircuitState } from '@toolshield/core/events';
import type { ToolBreakerState } from '@toolshield/nest';

/** How far each state is from serving calls: the state a tool shows is its worst breaker's. */
const SEVERITY: Readonly<Record<CircuitState, number>> = {
  closed: 0,
  half_open: 1,
  open: 2,
  isolated: 3,
};

/**
 * Each tool's breaker state, for lists by tool: a tool with a breaker per run (`news_search`)
 * shows the worst of them, so one run's open breaker is not hidden behind another's closed one.
 */
export function breakerStateByTool(
  breakers: readonly ToolBreakerState[],
): ReadonlyMap<string, CircuitState> {
  const states = new Map<string, CircuitState>();
  for (const { tool, state } of breakers) {
    const shown = states.get(tool);
    if (shown === undefined || SEVERITY[state] > SEVERITY[shown]) states.set(tool, state);
  }
  return states;
}

import { TRIP_REQUEST, TRIP_SCRIPT } from '../agent/trip-task.js';
import type { Scenario } from './scenario.js';

/** The trip task: weather, a flaky exchange rate, a note that does not exist yet. */
export const tripScenario: Scenario = {
  name: 'trip',
  title: 'Paris trip: weather, budget in USD, a note (retries and a CONTINUE)',
  task: TRIP_REQUEST,
  script: TRIP_SCRIPT,
  recoverable: true,
};

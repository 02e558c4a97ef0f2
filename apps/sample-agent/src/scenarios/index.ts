import { staleSearchScenario } from './stale-search.scenario.js';
import { kubeDeployForbiddenScenario, kubeMissingNamespaceScenario } from './kube.scenario.js';
import { askUserScenario, calculatorScenario, readFileScenario } from './local-tools.scenario.js';
import { outageScenario } from './outage.scenario.js';
import { payInvoiceScenario, payLargeInvoiceScenario } from './payment.scenario.js';
import type { Scenario } from './scenario.js';
import { tripScenario } from './trip.scenario.js';
import { searchesScenario, slowWebScenario, webResearchScenario } from './web-research.scenario.js';

export type { Scenario } from './scenario.js';

/** Every scenario the app knows, by name, in the order the demo runs them. */
export const SCENARIOS: ReadonlyMap<string, Scenario> = new Map(
  [
    tripScenario,
    webResearchScenario,
    slowWebScenario,
    kubeMissingNamespaceScenario,
    kubeDeployForbiddenScenario,
    readFileScenario,
    calculatorScenario,
    askUserScenario,
    outageScenario,
    staleSearchScenario,
    searchesScenario(20),
    payInvoiceScenario,
    payLargeInvoiceScenario,
  ].map((scenario) => [scenario.name, scenario]),
);

/** The scenario whose task is exactly `task`, if any. */
export function scenarioForTask(task: string): Scenario | undefined {
  const wanted = task.trim();
  return [...SCENARIOS.values()].find((scenario) => scenario.task === wanted);
}

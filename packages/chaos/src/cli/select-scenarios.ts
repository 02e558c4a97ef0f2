import picomatch from 'picomatch';
import type { ChaosScenario } from '../harness/chaos-scenario.js';
import { ChaosCliUsageError } from './parse-cli-args.js';

/**
 * The scenarios whose name equals one of `patterns` or matches it as a picomatch glob, in
 * the config's order; all of them when `patterns` is empty. A pattern that matches nothing
 * is a usage error naming the scenarios there are.
 */
export function selectScenarios(
  scenarios: readonly ChaosScenario[],
  patterns: readonly string[],
): readonly ChaosScenario[] {
  if (patterns.length === 0) return scenarios;
  const matchers = patterns.map((pattern) => {
    const glob = picomatch(pattern, { nocase: true });
    return { pattern, matches: (name: string) => name === pattern || glob(name) };
  });
  for (const { pattern, matches } of matchers) {
    if (!scenarios.some((scenario) => matches(scenario.name))) {
      throw new ChaosCliUsageError(
        `no scenario matches "${pattern}"; the scenarios are: ${scenarios
          .map((scenario) => JSON.stringify(scenario.name))
          .join(', ')}`,
      );
    }
  }
  return scenarios.filter((scenario) => matchers.some(({ matches }) => matches(scenario.name)));
}

import type { ChaosScenario } from '@toolshield/chaos';
import type { ChaosHarnessConfig } from '@toolshield/chaos/harness';
import { AppModule } from '../src/app.module.js';
import { scenarios } from './scenarios.js';

const CONCURRENCY = [1, 10, 25] as const;

/**
 * The scale measurement of the package README: 30 scenarios (the sample scenarios at three
 * concurrencies) x 20 seeds x 100 calls, through the real executor in virtual time. Run it
 * by hand: `tsc -b apps/sample-agent/chaos/tsconfig.json && time node
 * packages/chaos/dist/cli/main.js run apps/sample-agent/out-tsc/chaos/chaos/scale.config.js`.
 */
export default {
  module: AppModule,
  scenarios: Array.from({ length: 30 }, (_, index): ChaosScenario => {
    const scenario = scenarios[index % scenarios.length] as ChaosScenario;
    const concurrency = CONCURRENCY[Math.floor(index / scenarios.length) % CONCURRENCY.length];
    return { ...scenario, name: `${scenario.name} (x${concurrency})`, concurrency, count: 100 };
  }),
  seeds: 20,
} satisfies ChaosHarnessConfig;

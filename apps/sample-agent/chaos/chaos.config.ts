import type { ChaosHarnessConfig } from '@toolshield/chaos/harness';
import { AppModule } from '../src/app.module.js';
import { scenarios } from './scenarios.js';

/**
 * The repo's own chaos run (`nx run sample-agent:chaos`, part of `npm test`): every scenario
 * with 5 seeds against the sample agent's real module. Reports go to `reports/chaos/`.
 */
export default {
  module: AppModule,
  scenarios,
  seeds: 5,
  reports: { dir: 'reports/chaos', formats: ['json', 'junit', 'markdown'] },
} satisfies ChaosHarnessConfig;

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChaosHarnessConfig } from '../harness/chaos-harness-config.js';

/**
 * Imports a harness config module (its `default` export, or the module's own named exports
 * `module`, `scenarios`, `seeds`, `reports`) and checks its shape. TypeScript configs need a
 * loader that keeps decorator metadata (or compile them first).
 */
export async function loadChaosConfig(path: string): Promise<ChaosHarnessConfig> {
  const loaded = (await import(pathToFileURL(resolve(path)).href)) as {
    default?: ChaosHarnessConfig;
  } & Partial<ChaosHarnessConfig>;
  const config = (loaded.default ?? loaded) as Partial<ChaosHarnessConfig>;
  if (
    config.module === undefined ||
    !Array.isArray(config.scenarios) ||
    config.seeds === undefined
  ) {
    throw new Error(
      `${path} must export { module, scenarios, seeds, reports? } (as default or named exports).`,
    );
  }
  return config as ChaosHarnessConfig;
}

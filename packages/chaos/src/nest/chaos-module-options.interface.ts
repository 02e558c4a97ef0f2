import type { ChaosControllerOptions } from '../runtime/chaos-controller.js';

/**
 * Options of `ChaosModule.forRoot()` / `forRootAsync()`: the controller's options (`rules`,
 * `seed`, `enabled` (default `false`), `allowInProduction`, `env`). `clock` defaults to the
 * clock of `ToolShieldModule` (`TOOLSHIELD_CLOCK`), so injected latency and hangs run in the
 * same time as the policies that meet them (virtual time in tests).
 *
 * @publicApi
 */
export type ChaosModuleOptions = ChaosControllerOptions;

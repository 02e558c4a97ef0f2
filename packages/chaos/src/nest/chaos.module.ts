import { Module, type ConfigurableModuleCls } from '@nestjs/common';
import { checkingModuleOptions } from '@toolshield/nest/internal';
import { DiscoveryModule } from '@nestjs/core';
import { ChaosExplorer } from './chaos.explorer.js';
import { ChaosInterceptor } from './chaos.interceptor.js';
import { CHAOS_MODULE_OPTIONS, ConfigurableChaosModule } from './chaos.module-definition.js';
import { CHAOS_MODULE_OPTIONS_RULE } from '../options/chaos-options.rule.js';
import type { ChaosModuleOptions } from './chaos-module-options.interface.js';
import { ChaosService } from './chaos.service.js';

/**
 * What `ChaosModule` extends: Nest's generated `forRoot` and `forRootAsync` (with `isGlobal`),
 * which check the options on entry. Use `ChaosModule`, not this.
 *
 * @publicApi
 */
export const ChaosModuleBase: ConfigurableModuleCls<
  ChaosModuleOptions,
  'forRoot',
  'createChaosOptions',
  { isGlobal: boolean }
> = checkingModuleOptions(
  ConfigurableChaosModule,
  CHAOS_MODULE_OPTIONS,
  CHAOS_MODULE_OPTIONS_RULE,
  'ChaosModule options',
);

/**
 * Injects faults into every `@Tool()` of the application, innermost (between toolshield's
 * policies and the method), so the resilience pipeline meets them as if they were real.
 * Import it next to `ToolShieldModule`. Chaos is **off by default** (`enabled: false`);
 * turn it on here, per test, or at run time through {@link ChaosService}. With `enabled:
 * true` and `NODE_ENV=production` the app refuses to start unless `allowInProduction: true`.
 * Every injection also appears on `ToolExecutor.events$` as `chaos.injected`, and the
 * failures it causes carry `metadata.chaos: true`.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     ToolShieldModule.forRoot({ isGlobal: true }),
 *     ChaosModule.forRoot({
 *       enabled: process.env.CHAOS === 'on',
 *       seed: 42,
 *       rules: [{ tools: 'search*', fault: rateLimit({ retryAfterSeconds: 5 }), probability: 0.1 }],
 *     }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({
  imports: [DiscoveryModule],
  providers: [ChaosService, ChaosInterceptor, ChaosExplorer],
  exports: [ChaosService, CHAOS_MODULE_OPTIONS],
})
export class ChaosModule extends ChaosModuleBase {}

import type { DynamicModule, InjectionToken, Provider } from '@nestjs/common';
import { assertOptions, type OptionRule } from '@toolshield/core/internal';

/** What `ConfigurableModuleBuilder` builds with `setClassMethodName('forRoot')`. */
interface ConfigurableForRootModule {
  new (...args: never[]): object;
  forRoot(options: object): DynamicModule;
  forRootAsync(options: object): DynamicModule;
}

/**
 * Makes a module class built by `ConfigurableModuleBuilder` refuse options that break
 * `rule`: `forRoot()` checks them at once, `forRootAsync()` when its factory (`useFactory`,
 * or the one built for `useClass`/`useExisting`) returns them, so the application fails to
 * start with an `InvalidOptionsError` naming each bad option. For modules built on toolshield
 * (`ToolShieldModule` and `ChaosModule` use it).
 *
 * @example
 * ```ts
 * @Module({})
 * export class ChaosModule extends checkingModuleOptions(ConfigurableChaosModule, CHAOS_MODULE_OPTIONS, CHAOS_MODULE_OPTIONS_RULE, 'ChaosModule options') {}
 * ```
 * @publicApi
 */
export function checkingModuleOptions<T extends ConfigurableForRootModule>(
  base: T,
  token: InjectionToken,
  rule: OptionRule,
  subject: string,
): T {
  const check = <O>(options: O): O => assertOptions(rule, options, subject);
  const Base: ConfigurableForRootModule = base;
  return class extends Base {
    static override forRoot(options: object): DynamicModule {
      return super.forRoot(check(options));
    }

    static override forRootAsync(options: object): DynamicModule {
      const module = super.forRootAsync(options);
      return { ...module, providers: module.providers?.map((p) => checking(p, token, check)) };
    }
  } as unknown as T;
}

function checking(
  provider: Provider,
  token: InjectionToken,
  check: (options: unknown) => unknown,
): Provider {
  if (!('provide' in provider) || provider.provide !== token || !('useFactory' in provider)) {
    return provider;
  }
  const factory = provider.useFactory;
  return { ...provider, useFactory: async (...deps: unknown[]) => check(await factory(...deps)) };
}

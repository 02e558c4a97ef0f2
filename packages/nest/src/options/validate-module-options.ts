import type { DynamicModule, InjectionToken, Provider } from '@nestjs/common';
import { assertOptions, type OptionRule } from '@toolshield/core';

/**
 * Makes a `forRootAsync()` module check its options once they are known: the factory that
 * provides `token` (`useFactory`, or the one `ConfigurableModuleBuilder` builds for
 * `useClass`/`useExisting`) refuses options that break `rule`, so the application fails to
 * start with an `InvalidOptionsError` naming each bad option. For modules built on toolshield
 * (the chaos module uses it); `forRoot()` can check its options directly with `assertOptions`.
 *
 * @publicApi
 */
export function validateAsyncModuleOptions(
  module: DynamicModule,
  token: InjectionToken,
  rule: OptionRule,
  subject: string,
): DynamicModule {
  return {
    ...module,
    providers: module.providers?.map((provider) =>
      checkingOptions(provider, token, (options) => assertOptions(rule, options, subject)),
    ),
  };
}

function checkingOptions(
  provider: Provider,
  token: InjectionToken,
  check: (options: unknown) => unknown,
): Provider {
  if (!('provide' in provider) || provider.provide !== token || !('useFactory' in provider)) {
    return provider;
  }
  const factory = provider.useFactory;
  return {
    ...provider,
    useFactory: async (...deps: unknown[]) => check(await factory(...deps)),
  };
}

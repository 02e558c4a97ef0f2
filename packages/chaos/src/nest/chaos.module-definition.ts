import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ChaosModuleOptions } from './chaos-module-options.interface.js';

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableChaosModule,
  MODULE_OPTIONS_TOKEN: CHAOS_MODULE_OPTIONS,
  OPTIONS_TYPE: CHAOS_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: CHAOS_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ChaosModuleOptions>({ moduleName: 'Chaos' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createChaosOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();

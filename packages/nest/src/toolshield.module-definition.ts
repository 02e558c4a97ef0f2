import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolShieldModuleOptions } from './interfaces/toolshield-module-options.interface.js';

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableToolShieldModule,
  MODULE_OPTIONS_TOKEN: TOOLSHIELD_MODULE_OPTIONS,
  OPTIONS_TYPE: TOOLSHIELD_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: TOOLSHIELD_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolShieldModuleOptions>({ moduleName: 'ToolShield' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolShieldOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();

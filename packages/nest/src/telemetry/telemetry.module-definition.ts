import { ConfigurableModuleBuilder, type ConfigurableModuleCls } from '@nestjs/common';
import type { ToolShieldTelemetryOptions } from './telemetry-options.interface.js';

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableToolShieldTelemetryModule,
  MODULE_OPTIONS_TOKEN: TOOLSHIELD_TELEMETRY_OPTIONS,
  OPTIONS_TYPE: TOOLSHIELD_TELEMETRY_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolShieldTelemetryOptions>({ moduleName: 'ToolShieldTelemetry' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolShieldTelemetryOptions')
  .build();

/**
 * What `ToolShieldTelemetryModule` extends: Nest's generated `forRoot` and `forRootAsync`. Use
 * `ToolShieldTelemetryModule`, not this.
 *
 * @publicApi
 */
export const ToolShieldTelemetryModuleBase: ConfigurableModuleCls<
  ToolShieldTelemetryOptions,
  'forRoot',
  'createToolShieldTelemetryOptions'
> = ConfigurableToolShieldTelemetryModule;

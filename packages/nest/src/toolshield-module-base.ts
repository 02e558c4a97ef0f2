import type { ConfigurableModuleCls } from '@nestjs/common';
import type { ToolShieldModuleOptions } from './interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_OPTIONS_RULE } from './options/toolshield-options.rule.js';
import { checkingModuleOptions } from './options/validate-module-options.js';
import {
  ConfigurableToolShieldModule,
  TOOLSHIELD_MODULE_OPTIONS,
} from './toolshield.module-definition.js';

/**
 * What `ToolShieldModule` extends: Nest's generated `forRoot` and `forRootAsync` (with
 * `isGlobal`), which check the options on entry. Use `ToolShieldModule`, not this.
 *
 * @publicApi
 */
export const ToolShieldModuleBase: ConfigurableModuleCls<
  ToolShieldModuleOptions,
  'forRoot',
  'createToolShieldOptions',
  { isGlobal: boolean }
> = checkingModuleOptions(
  ConfigurableToolShieldModule,
  TOOLSHIELD_MODULE_OPTIONS,
  TOOLSHIELD_OPTIONS_RULE,
  'ToolShieldModule options',
);

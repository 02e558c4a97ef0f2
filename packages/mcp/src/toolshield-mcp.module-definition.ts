import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolShieldMcpModuleOptions } from './mcp-module-options.interface.js';

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableToolShieldMcpModule,
  MODULE_OPTIONS_TOKEN: TOOLSHIELD_MCP_OPTIONS,
  OPTIONS_TYPE: TOOLSHIELD_MCP_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolShieldMcpModuleOptions>({ moduleName: 'ToolShieldMcp' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolShieldMcpOptions')
  .build();

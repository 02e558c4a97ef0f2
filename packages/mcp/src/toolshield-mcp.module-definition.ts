import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolShieldMcpModuleOptions } from './mcp-module-options.interface.js';

const definition = new ConfigurableModuleBuilder<ToolShieldMcpModuleOptions>({
  moduleName: 'ToolShieldMcp',
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolShieldMcpOptions')
  .build();

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableToolShieldMcpModule,
  OPTIONS_TYPE: TOOLSHIELD_MCP_OPTIONS_TYPE,
} = definition;

/** The injection token of the resolved {@link ToolShieldMcpModuleOptions}. @publicApi */
export const TOOLSHIELD_MCP_OPTIONS = definition.MODULE_OPTIONS_TOKEN;

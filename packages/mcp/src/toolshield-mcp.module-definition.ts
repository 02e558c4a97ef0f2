import {
  ConfigurableModuleBuilder,
  type ConfigurableModuleCls,
  type DynamicModule,
} from '@nestjs/common';
import { assertOptions } from '@toolshield/core/internal';
import type {
  McpEndpointGuard,
  ToolShieldMcpModuleOptions,
} from './mcp-module-options.interface.js';
import { createMcpHttpController } from './server/mcp-http.controller.js';
import { MCP_ROUTE_OPTIONS_RULE } from './server/mcp-http-options.rule.js';
import {
  DEFAULT_MCP_PATH,
  MCP_ENDPOINT_ROUTE,
  type McpEndpointRoute,
} from './server/mcp-endpoint-route.js';
import { TOOLSHIELD_MCP_OPTIONS } from './toolshield-mcp-options.token.js';

/** The options that shape the module itself (its route), given to `forRoot` and `forRootAsync` alike. */
interface McpModuleExtras {
  path: string | false;
  guards: readonly McpEndpointGuard[];
}

/** Adds the endpoint's controller (unless `path: false`) and where it is to the module. */
function withEndpoint(definition: DynamicModule, extras: McpModuleExtras): DynamicModule {
  const { path, guards } = extras;
  assertOptions(MCP_ROUTE_OPTIONS_RULE, { path, guards }, 'ToolShieldMcpModule options');
  const controller = path === false ? undefined : createMcpHttpController(path, guards);
  const route: McpEndpointRoute = { path, controller };
  return {
    ...definition,
    controllers: controller ? [controller] : [],
    providers: [...(definition.providers ?? []), { provide: MCP_ENDPOINT_ROUTE, useValue: route }],
  };
}

/** @internal */
export const {
  ConfigurableModuleClass: ConfigurableToolShieldMcpModule,
  OPTIONS_TYPE: TOOLSHIELD_MCP_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolShieldMcpModuleOptions>({
  moduleName: 'ToolShieldMcp',
  optionsInjectionToken: TOOLSHIELD_MCP_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolShieldMcpOptions')
  .setExtras<McpModuleExtras>({ path: DEFAULT_MCP_PATH, guards: [] }, withEndpoint)
  .build();

/**
 * What `ToolShieldMcpModule` extends: Nest's generated `forRoot` and `forRootAsync`, with the
 * endpoint's `path` and `guards`. Use `ToolShieldMcpModule`, not this.
 *
 * @publicApi
 */
export const ToolShieldMcpModuleBase: ConfigurableModuleCls<
  ToolShieldMcpModuleOptions,
  'forRoot',
  'createToolShieldMcpOptions',
  { path: string | false; guards: readonly McpEndpointGuard[] }
> = ConfigurableToolShieldMcpModule;

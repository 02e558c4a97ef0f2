import {
  Inject,
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import { McpClients } from './client/mcp-clients.service.js';
import { McpCallerCheckMiddleware } from './server/mcp-caller-check.middleware.js';
import { MCP_ENDPOINT_ROUTE, type McpEndpointRoute } from './server/mcp-endpoint-route.js';
import { McpHttpEndpoint } from './server/mcp-http.endpoint.js';
import { McpToolServer } from './server/mcp-tool-server.js';
import type {
  McpEndpointGuard,
  ToolShieldMcpModuleOptions,
} from './mcp-module-options.interface.js';
import { ToolShieldMcpModuleBase } from './toolshield-mcp.module-definition.js';

/**
 * Puts toolshield and MCP together, both ways. As a server, it serves every toolshield tool
 * (decorated or registered in code) over MCP: Streamable HTTP on the application's HTTP
 * server at `path` (sessions keyed by `mcp-session-id`, `DELETE` ends one), and stdio
 * through {@link serveToolsOverStdio}. As a client, it registers the tools of the remote
 * servers in `clients` (and of those you connect through {@link McpClients}) as toolshield
 * tools, so every remote call runs through the resilience pipeline. Needs
 * `ToolShieldModule.forRoot({ isGlobal: true })` and the optional peer
 * `@modelcontextprotocol/sdk`.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     ToolShieldModule.forRoot({ isGlobal: true }),
 *     ToolShieldMcpModule.forRoot({
 *       path: '/mcp',
 *       serverInfo: { name: 'weather-agent', version: '1.0.0' },
 *       clients: [{ name: 'search', url: 'http://127.0.0.1:7000/mcp', idempotent: true }],
 *     }),
 *   ],
 *   providers: [WeatherTools],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({
  providers: [McpToolServer, McpHttpEndpoint, McpClients],
  exports: [McpToolServer, McpClients],
})
export class ToolShieldMcpModule extends ToolShieldMcpModuleBase implements NestModule {
  /** Nest injects where the endpoint is. @internal */
  constructor(@Inject(MCP_ENDPOINT_ROUTE) private readonly route: McpEndpointRoute) {
    super();
  }

  /** Checks `Host` and `Origin` on the endpoint's route before its guards run. */
  configure(consumer: MiddlewareConsumer): void {
    if (this.route.controller) {
      consumer.apply(McpCallerCheckMiddleware).forRoutes(this.route.controller);
    }
  }

  /** Registers the module; `forRoot()` alone serves the tools at `/mcp`. */
  static override forRoot(
    options: ToolShieldMcpModuleOptions & {
      readonly path?: string | false;
      readonly guards?: readonly McpEndpointGuard[];
    } = {},
  ): DynamicModule {
    return super.forRoot(options);
  }
}

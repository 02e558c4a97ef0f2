import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { assertOptions } from '@toolshield/core/internal';
import type { Server, ServerResponse } from 'node:http';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import { allowedCallers } from './mcp-allowed-hosts.js';
import { MCP_ENDPOINT_ROUTE, type McpEndpointRoute } from './mcp-endpoint-route.js';
import { MCP_HTTP_OPTIONS_RULE } from './mcp-http-options.rule.js';
import { McpHttpSessions } from './mcp-http-sessions.js';
import { McpToolServer } from './mcp-tool-server.js';
import {
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  resourceUrl,
} from './protected-resource-metadata.js';

/**
 * The Streamable HTTP endpoint's state around its route: the sessions (all ended when the
 * application shuts down), the check that the app does not listen beyond the loopback
 * interface with no allowed hosts (`listen()` rejects with an `McpEndpointExposedError`),
 * and the protected resource metadata document, when configured.
 *
 * @internal
 */
@Injectable()
export class McpHttpEndpoint implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ToolShieldMcp');
  readonly sessions: McpHttpSessions;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    tools: McpToolServer,
    @InjectToolShieldMcpOptions() private readonly options: ToolShieldMcpModuleOptions,
    @Inject(MCP_ENDPOINT_ROUTE) private readonly route: McpEndpointRoute,
  ) {
    assertOptions(MCP_HTTP_OPTIONS_RULE, options.http ?? {}, 'ToolShieldMcpModule options', 'http');
    this.sessions = new McpHttpSessions(tools, {
      enableJsonResponse: options.http?.enableJsonResponse,
    });
  }

  onModuleInit(): void {
    const { path } = this.route;
    const adapter = this.adapterHost.httpAdapter;
    // An application context (a CLI, a stdio server) has no HTTP adapter: nothing to serve.
    if (path === false || adapter == null) return;
    const http = this.options.http ?? {};
    if (http.enableDnsRebindingProtection !== false)
      this.refuseExposedListening(adapter.getHttpServer() as Server);
    const protectedResource = http.protectedResource;
    if (protectedResource) {
      const configured = protectedResource.resource;
      const metadataPath = new URL(
        protectedResourceMetadataUrl(new URL(configured ?? path, 'http://localhost')),
      ).pathname;
      adapter.get(metadataPath, (request, response: ServerResponse) => {
        const resource = resourceUrl(protectedResource, path, request);
        response
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(protectedResourceMetadata(protectedResource, resource)));
      });
    }
    this.logger.log(`Serving tools over MCP (Streamable HTTP) at ${path}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sessions.closeAll();
  }

  /** Once the server listens, closes it again when the endpoint would answer any site. */
  private refuseExposedListening(server: Server): void {
    server.once('listening', () => {
      try {
        allowedCallers(this.options.http ?? {}, server.address());
      } catch (error) {
        server.close();
        // `app.listen()` listens for it and rejects; a server started some other way logs it.
        if (server.listenerCount('error') > 0) server.emit('error', error);
        else this.logger.error(String(error));
      }
    });
  }
}

import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import { McpHttpSessions } from './mcp-http-sessions.js';
import { McpToolServer } from './mcp-tool-server.js';

/** Default path of the Streamable HTTP endpoint. @publicApi */
export const DEFAULT_MCP_PATH = '/mcp';

type ParsedRequest = IncomingMessage & { body?: unknown };

/**
 * Mounts the Streamable HTTP endpoint (POST, GET and DELETE on the configured path) on the
 * application's HTTP server when it has one, before Nest's not-found handler; ends every
 * session when the application shuts down.
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
  ) {
    this.sessions = new McpHttpSessions(tools, options.http);
  }

  onModuleInit(): void {
    const path = this.options.path ?? DEFAULT_MCP_PATH;
    const adapter = this.adapterHost.httpAdapter;
    // An application context (a CLI, a stdio server) has no HTTP adapter: nothing to mount.
    if (path === false || adapter == null) return;
    const handler = (request: ParsedRequest, response: ServerResponse) => {
      this.sessions.handle(request, response, request.body).catch((error: unknown) => {
        this.logger.error(`MCP request failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500).end();
      });
    };
    adapter.post(path, handler);
    adapter.get(path, handler);
    adapter.delete(path, handler);
    this.logger.log(`Serving tools over MCP (Streamable HTTP) at ${path}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sessions.closeAll();
  }
}

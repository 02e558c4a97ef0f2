import {
  Controller,
  Delete,
  Get,
  Inject,
  Logger,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
  type Type,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpEndpointGuard } from '../mcp-module-options.interface.js';
import { McpHttpEndpoint } from './mcp-http.endpoint.js';
import { McpUnauthorizedFilter } from './mcp-unauthorized.filter.js';

type ParsedRequest = IncomingMessage & { body?: unknown };

/**
 * The Streamable HTTP endpoint as a Nest controller at `path` (POST, GET and DELETE), so the
 * application's global prefix, global guards, interceptors and the `guards` given here apply
 * to it like to any route.
 *
 * @internal
 */
export function createMcpHttpController(
  path: string,
  guards: readonly McpEndpointGuard[],
): Type<unknown> {
  @Controller(path)
  @UseGuards(...guards)
  @UseFilters(McpUnauthorizedFilter)
  class McpHttpController {
    private readonly logger = new Logger('ToolShieldMcp');

    constructor(@Inject(McpHttpEndpoint) private readonly endpoint: McpHttpEndpoint) {}

    @Post()
    post(@Req() request: ParsedRequest, @Res() response: ServerResponse): void {
      this.handle(request, response);
    }

    @Get()
    get(@Req() request: ParsedRequest, @Res() response: ServerResponse): void {
      this.handle(request, response);
    }

    @Delete()
    delete(@Req() request: ParsedRequest, @Res() response: ServerResponse): void {
      this.handle(request, response);
    }

    private handle(request: ParsedRequest, response: ServerResponse): void {
      this.endpoint.sessions.handle(request, response, request.body).catch((error: unknown) => {
        this.logger.error(`MCP request failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500).end();
      });
    }
  }
  return McpHttpController;
}

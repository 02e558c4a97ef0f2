import { Injectable, type NestMiddleware } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import { allowedCallers, isAllowedOrigin, type McpAllowedCallers } from './mcp-allowed-hosts.js';

type CallerCheck = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Answers 403 to a request to the endpoint from another site, before any guard runs: a
 * `Host` the endpoint does not serve (the SDK's `hostHeaderValidation`), or a browser's
 * `Origin` that is neither the endpoint's own nor listed.
 *
 * @internal
 */
@Injectable()
export class McpCallerCheckMiddleware implements NestMiddleware {
  private callers?: McpAllowedCallers;
  private checkHost?: CallerCheck;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectToolShieldMcpOptions() private readonly options: ToolShieldMcpModuleOptions,
  ) {}

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const http = this.options.http ?? {};
    if (http.enableDnsRebindingProtection === false) return next();
    if (!this.callers || !this.checkHost) {
      const server = this.adapterHost.httpAdapter.getHttpServer() as {
        address(): AddressInfo | string | null;
      };
      this.callers = allowedCallers(http, server.address());
      // Express middleware: the endpoint is an Express route, so `response` is Express's.
      this.checkHost = hostHeaderValidation([...this.callers.hosts]) as CallerCheck;
    }
    const { origins } = this.callers;
    this.checkHost(request, response, () => {
      const origin = request.headers.origin;
      if (isAllowedOrigin(origin, request.headers.host ?? '', origins)) return next();
      response.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: `Invalid Origin: ${String(origin)}` },
          id: null,
        }),
      );
    });
  }
}

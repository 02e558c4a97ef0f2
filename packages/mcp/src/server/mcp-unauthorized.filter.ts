import {
  Catch,
  HttpException,
  HttpStatus,
  Inject,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import { bearerChallenge, resourceUrl } from './protected-resource-metadata.js';
import { MCP_ENDPOINT_ROUTE, type McpEndpointRoute } from './mcp-endpoint-route.js';

/**
 * The endpoint's HTTP errors (a guard's `UnauthorizedException`, `ForbiddenException`, ...)
 * as Nest answers them, and a 401 names the protected resource metadata in
 * `WWW-Authenticate` when `http.protectedResource` is set, so an MCP client can find the
 * authorization server.
 *
 * @internal
 */
@Catch(HttpException)
export class McpUnauthorizedFilter implements ExceptionFilter {
  constructor(
    @InjectToolShieldMcpOptions() private readonly options: ToolShieldMcpModuleOptions,
    @Inject(MCP_ENDPOINT_ROUTE) private readonly route: McpEndpointRoute,
  ) {}

  catch(exception: HttpException, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<IncomingMessage>();
    const response = http.getResponse<ServerResponse>();
    const status = exception.getStatus();
    const body = exception.getResponse();
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    const protectedResource = this.options.http?.protectedResource;
    if (status === HttpStatus.UNAUTHORIZED && protectedResource) {
      const path = String(this.route.path);
      headers['www-authenticate'] = bearerChallenge(resourceUrl(protectedResource, path, request));
    }
    if (response.headersSent) return void response.end();
    response
      .writeHead(status, headers)
      .end(JSON.stringify(typeof body === 'object' ? body : { statusCode: status, message: body }));
  }
}

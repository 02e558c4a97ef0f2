import type { CanActivate, Type } from '@nestjs/common';
import type { OutcomeRenderOptions } from '@toolshield/core';
import type { McpClientOptions } from './client/mcp-client-options.interface.js';

/**
 * Who this MCP server says it is in the `initialize` handshake.
 *
 * @publicApi
 */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/**
 * What the endpoint tells MCP clients about its authorization (the resource-server side of
 * the MCP authorization spec, RFC 9728): served as JSON at
 * `/.well-known/oauth-protected-resource<path>`, and named in the `WWW-Authenticate` header
 * of every 401 the endpoint answers.
 *
 * @publicApi
 */
export interface McpProtectedResourceOptions {
  /** The authorization servers whose tokens the endpoint accepts (issuer URLs; at least one). */
  readonly authorizationServers: readonly string[];
  /**
   * The endpoint's public URL, as clients reach it (`https://mcp.example.com/mcp`); by default
   * the URL of the request, from its (validated) `Host` header and the endpoint's path.
   */
  readonly resource?: string;
  /** Scopes the endpoint understands, advertised as `scopes_supported`. */
  readonly scopesSupported?: readonly string[];
  /** A name for people, advertised as `resource_name`. */
  readonly resourceName?: string;
}

/**
 * How the Streamable HTTP endpoint guards itself against other sites. By default it answers
 * only requests whose `Host` names the loopback address the app listens on (`localhost`,
 * `127.0.0.1`, `[::1]`) and whose `Origin`, when a browser sends one, is the endpoint's own:
 * anything else gets 403 (DNS rebinding, cross-site requests). An app that listens on any
 * other address (`0.0.0.0`, a public IP) must list its hosts, or it does not start.
 *
 * @publicApi
 */
export interface McpHttpOptions {
  /**
   * Host names (without port; `[::1]` for IPv6) allowed in the `Host` header, instead of the
   * loopback names derived from the listening address. Required when the app listens beyond
   * the loopback interface.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (`https://app.example.com`) allowed in the `Origin` header besides the endpoint's
   * own. Requests without `Origin` (not from a browser) are not affected.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * `false` switches the `Host` and `Origin` checks off, for an endpoint behind a proxy that
   * makes them (default `true`).
   */
  readonly enableDnsRebindingProtection?: boolean;
  /** Answers `tools/call` with plain JSON instead of an SSE stream (default false). */
  readonly enableJsonResponse?: boolean;
  /** Serve protected resource metadata and point 401 answers at it (see the MCP authorization spec). */
  readonly protectedResource?: McpProtectedResourceOptions;
}

/**
 * A guard for the endpoint: a class Nest instantiates (with injection), or an instance.
 *
 * @publicApi
 */
export type McpEndpointGuard = Type<CanActivate> | CanActivate;

/**
 * Options of {@link ToolShieldMcpModule}.
 *
 * @publicApi
 */
export interface ToolShieldMcpModuleOptions extends OutcomeRenderOptions {
  /**
   * Where the Streamable HTTP endpoint listens: a route of the application (Express), under
   * its global prefix if it has one (default `'/mcp'`); `false` serves no HTTP (stdio only,
   * or an application context without HTTP).
   */
  readonly path?: string | false;
  /**
   * Guards of the endpoint's route, run after the application's global guards (`APP_GUARD`,
   * `useGlobalGuards`), which protect it too. A guard that throws `UnauthorizedException`
   * gives a 401 (with `WWW-Authenticate` when `http.protectedResource` is set).
   */
  readonly guards?: readonly McpEndpointGuard[];
  /** Default `{ name: 'toolshield', version: <this package's version> }`. */
  readonly serverInfo?: McpServerInfo;
  /** Sent to clients in the `initialize` result: how to use this server's tools. */
  readonly instructions?: string;
  readonly http?: McpHttpOptions;
  /** Remote MCP servers whose tools to register as toolshield tools (see `McpClients`). */
  readonly clients?: readonly McpClientOptions[];
}

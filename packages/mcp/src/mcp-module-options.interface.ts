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
 * How the Streamable HTTP endpoint guards itself (see the MCP transport's DNS rebinding
 * advice: set them when the app listens beyond localhost).
 *
 * @publicApi
 */
export interface McpHttpOptions {
  /** Hosts allowed in the `Host` header (with `enableDnsRebindingProtection`). */
  readonly allowedHosts?: string[];
  /** Origins allowed in the `Origin` header (with `enableDnsRebindingProtection`). */
  readonly allowedOrigins?: string[];
  /** Checks `Host` and `Origin` against the lists above (default false). */
  readonly enableDnsRebindingProtection?: boolean;
  /** Answers `tools/call` with plain JSON instead of an SSE stream (default false). */
  readonly enableJsonResponse?: boolean;
}

/**
 * Options of {@link ToolShieldMcpModule}.
 *
 * @publicApi
 */
export interface ToolShieldMcpModuleOptions extends OutcomeRenderOptions {
  /**
   * Where the Streamable HTTP endpoint listens on the application's HTTP server (Express),
   * outside any global prefix (default `'/mcp'`); `false` serves no HTTP (stdio only, or an
   * application context without HTTP).
   */
  readonly path?: string | false;
  /** Default `{ name: 'toolshield', version: '0.1.0' }`. */
  readonly serverInfo?: McpServerInfo;
  /** Sent to clients in the `initialize` result: how to use this server's tools. */
  readonly instructions?: string;
  readonly http?: McpHttpOptions;
  /** Remote MCP servers whose tools to register as toolshield tools (see `McpClients`). */
  readonly clients?: readonly McpClientOptions[];
}

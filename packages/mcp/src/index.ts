/**
 * @toolshield/mcp: toolshield tools served over MCP, and remote MCP tools behind
 * toolshield's resilience pipeline.
 *
 * @packageDocumentation
 */
export { ToolShieldMcpModule } from './toolshield-mcp.module.js';
export { ToolShieldMcpModuleBase } from './toolshield-mcp.module-definition.js';
export { TOOLSHIELD_MCP_OPTIONS } from './toolshield-mcp-options.token.js';
export type {
  McpEndpointGuard,
  McpHttpOptions,
  McpProtectedResourceOptions,
  McpServerInfo,
  ToolShieldMcpModuleOptions,
} from './mcp-module-options.interface.js';
export { McpToolServer } from './server/mcp-tool-server.js';
export { DEFAULT_MCP_PATH } from './server/mcp-endpoint-route.js';
export { McpEndpointExposedError } from './server/mcp-allowed-hosts.js';
export { serveToolsOverStdio } from './server/serve-tools-over-stdio.js';
export { McpClients } from './client/mcp-clients.service.js';
export { McpRemoteServer, type McpConnectionState } from './client/mcp-remote-server.js';
export type { McpClientOptions } from './client/mcp-client-options.interface.js';

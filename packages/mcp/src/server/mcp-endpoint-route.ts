import type { Type } from '@nestjs/common';

/** Default path of the Streamable HTTP endpoint. @publicApi */
export const DEFAULT_MCP_PATH = '/mcp';

/** Where the endpoint is served, as the module was registered (`false`: no HTTP). @internal */
export interface McpEndpointRoute {
  readonly path: string | false;
  /** The endpoint's controller (none without HTTP). */
  readonly controller?: Type<unknown>;
}

/** Injection token of the {@link McpEndpointRoute}. @internal */
export const MCP_ENDPOINT_ROUTE = Symbol('McpEndpointRoute');

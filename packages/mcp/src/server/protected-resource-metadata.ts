import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { McpProtectedResourceOptions } from '../mcp-module-options.interface.js';

/** The endpoint's public URL: `resource` when configured, else the URL `request` reached. */
export function resourceUrl(
  options: McpProtectedResourceOptions,
  path: string,
  request: IncomingMessage,
): URL {
  if (options.resource !== undefined) return new URL(options.resource);
  const scheme = (request.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  return new URL(path, `${scheme}://${request.headers.host ?? 'localhost'}`);
}

/** Where the metadata of the endpoint at `resource` lives (RFC 9728: the path-specific URL). */
export function protectedResourceMetadataUrl(resource: URL): string {
  return getOAuthProtectedResourceMetadataUrl(resource);
}

/** The `WWW-Authenticate` value of a 401 from the endpoint at `resource`. */
export function bearerChallenge(resource: URL): string {
  return `Bearer resource_metadata="${protectedResourceMetadataUrl(resource)}"`;
}

/** The protected resource metadata document (RFC 9728) of the endpoint at `resource`. */
export function protectedResourceMetadata(
  options: McpProtectedResourceOptions,
  resource: URL,
): Record<string, unknown> {
  return {
    resource: resource.href,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported ? { scopes_supported: [...options.scopesSupported] } : {}),
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
  };
}

import type { AddressInfo } from 'node:net';
import type { McpHttpOptions } from '../mcp-module-options.interface.js';

/** The loopback names a request to a loopback address may carry in `Host`. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The app listens beyond the loopback interface (a wildcard or a public address) and the
 * endpoint has no list of hosts: it would answer any site, so the app does not start.
 *
 * @publicApi
 */
export class McpEndpointExposedError extends Error {
  override readonly name = 'McpEndpointExposedError';

  constructor(readonly address: string) {
    super(
      `The MCP endpoint would answer any site: the app listens on ${address}, beyond the ` +
        `loopback interface, and ToolShieldMcpModule has no http.allowedHosts. List the host ` +
        `names clients use (http: { allowedHosts: ['mcp.example.com'] }), listen on ` +
        `127.0.0.1, or set http.enableDnsRebindingProtection: false behind a proxy that checks ` +
        `Host and Origin itself.`,
    );
  }
}

/** Who may call the endpoint, once the app listens. */
export interface McpAllowedCallers {
  /** Host names (no port) allowed in `Host`. */
  readonly hosts: readonly string[];
  /** Origins allowed besides the endpoint's own (the `Host` it was reached at). */
  readonly origins: readonly string[];
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * The callers the endpoint answers, from the options and the address the app listens on:
 * the listed hosts, or the loopback names when it listens on a loopback address.
 *
 * @throws McpEndpointExposedError when it listens elsewhere (`0.0.0.0`, `::`, a public
 * address, a pipe) with no `allowedHosts`.
 */
export function allowedCallers(
  http: McpHttpOptions,
  address: AddressInfo | string | null,
): McpAllowedCallers {
  const origins = http.allowedOrigins ?? [];
  if (http.allowedHosts) {
    return { hosts: http.allowedHosts.map((host) => host.toLowerCase()), origins };
  }
  const where = typeof address === 'string' ? address : (address?.address ?? 'an unknown address');
  if (typeof address === 'string' || !address || !isLoopback(address.address)) {
    throw new McpEndpointExposedError(where);
  }
  return { hosts: LOOPBACK_HOSTS, origins };
}

/**
 * Whether a browser's `Origin` may call the endpoint: absent (not a browser), the endpoint's
 * own origin (same scheme-less host and port as the request's validated `Host`), or listed.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase()
    );
  } catch {
    return false;
  }
}

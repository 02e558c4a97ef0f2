import type { ToolError } from '../errors/tool-error.js';

/**
 * Codes of failures that happen before a request is sent: the name did not resolve, the host
 * or network was unreachable, the connection was refused or never completed. Every other
 * network failure may come after the request went out (`ECONNRESET`, `socket hang up`,
 * `EPIPE`, undici's `UND_ERR_SOCKET`, an unknown code or none).
 */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** HTTP 504: a gateway gave up waiting for the upstream it had passed the request to. */
const GATEWAY_TIMEOUT = 504;

/**
 * Whether the failed call's request may have reached the upstream without its answer coming
 * back, so that its effect, if the tool has one, may have happened: an attempt timeout, a
 * connection dropped after sending, a cancellation by the caller or a shutdown while the
 * call ran, a gateway timeout. A refused or unresolved connection never sent anything.
 *
 * @internal
 */
export function requestMayHaveLeft(error: ToolError): boolean {
  const code = typeof error.metadata['code'] === 'string' ? error.metadata['code'] : undefined;
  switch (error.type) {
    case 'timeout':
    case 'network':
      return code === undefined || !NEVER_SENT_CODES.has(code);
    case 'cancelled':
      return true;
    case 'upstream_unavailable':
      return error.metadata['statusCode'] === GATEWAY_TIMEOUT;
    default:
      return false;
  }
}

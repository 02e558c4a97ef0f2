import { ToolErrorType } from '../errors/tool-error-type.js';

/**
 * Error `code`s of Node, undici, axios and opossum, and the taxonomy member each means.
 *
 * @publicApi
 */
export const ERROR_CODE_TYPES: Readonly<Record<string, ToolErrorType>> = Object.freeze({
  ECONNRESET: ToolErrorType.Network,
  ECONNREFUSED: ToolErrorType.Network,
  ECONNABORTED: ToolErrorType.Network,
  ENOTFOUND: ToolErrorType.Network,
  EAI_AGAIN: ToolErrorType.Network,
  EPIPE: ToolErrorType.Network,
  EHOSTUNREACH: ToolErrorType.Network,
  ENETUNREACH: ToolErrorType.Network,
  ENETDOWN: ToolErrorType.Network,
  UND_ERR_SOCKET: ToolErrorType.Network,
  ERR_NETWORK: ToolErrorType.Network,
  ETIMEDOUT: ToolErrorType.Timeout,
  ESOCKETTIMEDOUT: ToolErrorType.Timeout,
  UND_ERR_CONNECT_TIMEOUT: ToolErrorType.Timeout,
  UND_ERR_HEADERS_TIMEOUT: ToolErrorType.Timeout,
  UND_ERR_BODY_TIMEOUT: ToolErrorType.Timeout,
  ENOENT: ToolErrorType.NotFound,
  EACCES: ToolErrorType.PermissionDenied,
  EPERM: ToolErrorType.PermissionDenied,
  EOPENBREAKER: ToolErrorType.CircuitOpen,
  ESEMLOCKED: ToolErrorType.BulkheadFull,
  ABORT_ERR: ToolErrorType.Cancelled,
  ERR_CANCELED: ToolErrorType.Cancelled,
});

/** The taxonomy member for an error code, or `undefined` for codes with no fixed meaning. @publicApi */
export function toolErrorTypeForCode(code: string): ToolErrorType | undefined {
  return Object.hasOwn(ERROR_CODE_TYPES, code) ? ERROR_CODE_TYPES[code] : undefined;
}

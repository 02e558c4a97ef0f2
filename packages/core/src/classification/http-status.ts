import { ToolErrorType } from '../errors/tool-error-type.js';

const BY_STATUS: Readonly<Record<number, ToolErrorType>> = {
  400: ToolErrorType.InvalidInput,
  401: ToolErrorType.PermissionDenied,
  403: ToolErrorType.PermissionDenied,
  404: ToolErrorType.NotFound,
  408: ToolErrorType.Timeout,
  409: ToolErrorType.Conflict,
  410: ToolErrorType.NotFound,
  413: ToolErrorType.LimitExceeded,
  414: ToolErrorType.LimitExceeded,
  422: ToolErrorType.InvalidInput,
  429: ToolErrorType.RateLimited,
  431: ToolErrorType.LimitExceeded,
  500: ToolErrorType.UpstreamUnavailable,
  502: ToolErrorType.UpstreamUnavailable,
  503: ToolErrorType.UpstreamUnavailable,
  504: ToolErrorType.UpstreamUnavailable,
};

/**
 * The taxonomy member for an HTTP error status: the well-known statuses by name (400/422
 * invalid input, 401/403 permission denied, 404/410 not found, 408 timeout, 409 conflict,
 * 413/414/431 limit exceeded, 429 rate limited, 500/502/503/504 upstream unavailable), any
 * other 4xx as invalid input and any other 5xx as upstream unavailable. `undefined` for
 * anything that is not an error status (outside 400–599).
 *
 * @publicApi
 */
export function toolErrorTypeForHttpStatus(status: number): ToolErrorType | undefined {
  if (!Number.isInteger(status) || status < 400 || status > 599) return undefined;
  return (
    BY_STATUS[status] ??
    (status < 500 ? ToolErrorType.InvalidInput : ToolErrorType.UpstreamUnavailable)
  );
}

/**
 * How the fixture upstream answers one request on a route.
 *
 * - `ok`: 200 with the route's JSON;
 * - `rate_limited`: 429 with `Retry-After: retryAfterSeconds` (default 1);
 * - `unavailable`: 503;
 * - `slow`: the normal answer after `delayMs` (default 2 000);
 * - `reset`: headers and half a body, then the connection is destroyed mid-response;
 * - `html_error`: a 502 HTML error page, like a proxy in front of a dead service.
 */
export type UpstreamBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds?: number }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'slow'; readonly delayMs?: number }
  | { readonly kind: 'reset' }
  | { readonly kind: 'html_error' };

/** The routes of the fixture upstream. */
export const UPSTREAM_ROUTES = ['search', 'page'] as const;

/** One route of the fixture upstream. */
export type UpstreamRoute = (typeof UPSTREAM_ROUTES)[number];

/**
 * A route's plan: the behaviours of the next requests, one each in order, then `then` for
 * every request after them (default `ok`).
 */
export interface RoutePlan {
  readonly next?: readonly UpstreamBehaviour[];
  readonly then?: UpstreamBehaviour;
}

const KINDS = new Set(['ok', 'rate_limited', 'unavailable', 'slow', 'reset', 'html_error']);

/** Whether `value` is an {@link UpstreamBehaviour} (for plans received as JSON). */
export function isUpstreamBehaviour(value: unknown): value is UpstreamBehaviour {
  return (
    typeof value === 'object' &&
    value !== null &&
    KINDS.has((value as { kind?: unknown }).kind as string)
  );
}

/** Whether `value` is a {@link RoutePlan} (for plans received as JSON). */
export function isRoutePlan(value: unknown): value is RoutePlan {
  if (typeof value !== 'object' || value === null) return false;
  const { next, then } = value as { next?: unknown; then?: unknown };
  return (
    (next === undefined || (Array.isArray(next) && next.every(isUpstreamBehaviour))) &&
    (then === undefined || isUpstreamBehaviour(then))
  );
}

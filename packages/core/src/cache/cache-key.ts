import { canonicalJson } from '../agent/guards/canonical-json.js';

/**
 * The cache key of a call: the tool, the scope (a user or tenant; empty when unscoped) and the
 * arguments in canonical JSON (object keys sorted at every depth), so `{"a":1,"b":2}` and
 * `{"b":2,"a":1}` share an entry and two scopes never do.
 *
 * @example
 * toolCacheKey('web_search', { q: 'nest', page: 1 }, 'user-7'); // 'web_search\u0000user-7\u0000{"page":1,"q":"nest"}'
 * @publicApi
 */
export function toolCacheKey(tool: string, args: unknown, scope = ''): string {
  return `${tool}\u0000${scope}\u0000${canonicalJson(args)}`;
}

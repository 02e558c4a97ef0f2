import type { ToolCallRequest } from '../../results/index.js';

function canonicalValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = canonicalValue((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

/**
 * JSON with object keys sorted at every depth, so `{"a":1,"b":2}` and `{"b":2,"a":1}` read
 * the same. A string that is not JSON is returned trimmed, as is.
 *
 * @publicApi
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(canonicalValue(JSON.parse(value)));
    } catch {
      return value.trim();
    }
  }
  return JSON.stringify(canonicalValue(value ?? {})) ?? String(value);
}

/**
 * Identifies "the same call": tool name plus canonical arguments (missing, empty and `{}`
 * arguments are the same).
 *
 * @publicApi
 */
export function toolCallFingerprint(call: ToolCallRequest): string {
  const args = call.arguments;
  const empty =
    args === undefined || args === null || (typeof args === 'string' && args.trim() === '');
  return `${call.name}\u0000${canonicalJson(empty ? {} : args)}`;
}

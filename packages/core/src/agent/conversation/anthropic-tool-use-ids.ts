import { createHash } from 'node:crypto';

/** What the Anthropic Messages API accepts as a `tool_use.id` (and `tool_result.tool_use_id`). */
export const ANTHROPIC_TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** Longest readable part kept from an id that has to be rewritten. */
const MAX_KEPT_PREFIX = 40;
/** Characters of the base64url SHA-256 digest appended to a rewritten id (96 bits). */
const DIGEST_LENGTH = 16;

/** Whether Anthropic accepts `id` as a tool_use id. */
export function isAnthropicToolUseId(id: string): boolean {
  return ANTHROPIC_TOOL_USE_ID.test(id);
}

/**
 * The Anthropic id of every tool call id of one conversation (see ADR 0007): a valid id stays
 * as it is; any other (`functions.lookup:0` from an OpenAI-compatible model) becomes its first
 * 40 characters with each refused character replaced by `_`, then `_` and 16 characters of
 * the base64url SHA-256 of the whole id (`functions_lookup_0_<digest>`, at most 57
 * characters). Should that name be taken already, by a valid id of the conversation or an
 * earlier rewrite, `_2`, `_3`, … is appended. So the mapping is deterministic for a given
 * conversation, never merges two ids, and calls and results, mapped through the same table,
 * stay paired.
 */
export function anthropicToolUseIds(ids: Iterable<string>): ReadonlyMap<string, string> {
  const unique = [...new Set(ids)];
  const taken = new Set(unique.filter(isAnthropicToolUseId));
  const mapped = new Map<string, string>();
  for (const id of unique) {
    if (taken.has(id)) {
      mapped.set(id, id);
      continue;
    }
    const base = rewrite(id);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
    taken.add(candidate);
    mapped.set(id, candidate);
  }
  return mapped;
}

function rewrite(id: string): string {
  const kept = id.slice(0, MAX_KEPT_PREFIX).replace(/[^a-zA-Z0-9_-]/g, '_');
  const digest = createHash('sha256').update(id).digest('base64url').slice(0, DIGEST_LENGTH);
  return `${kept}_${digest}`;
}

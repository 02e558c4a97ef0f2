/**
 * Longest tool name echoed back (in `ToolFailure.tool`, messages and events): the MCP
 * limit, twice what OpenAI and Anthropic accept, so no registered name is ever cut.
 *
 * @publicApi
 */
export const MAX_ECHOED_TOOL_NAME_LENGTH = 128;

/**
 * A requested tool name fit to echo: unchanged up to {@link MAX_ECHOED_TOOL_NAME_LENGTH}
 * characters, longer ones cut to that length, ending in `…`. A model that sends a
 * 100,000-character name does not get it back whole.
 *
 * @example
 * capToolName('get_weather'); // 'get_weather'
 * capToolName('x'.repeat(100_000)).length; // 128
 * @publicApi
 */
export function capToolName(name: string): string {
  if (name.length <= MAX_ECHOED_TOOL_NAME_LENGTH) return name;
  const kept = name.slice(0, MAX_ECHOED_TOOL_NAME_LENGTH - 1);
  // Never end on the first half of a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept}…`;
}

import type { ConversationToolCall } from './conversation-message.js';

type ToolCallArguments = ConversationToolCall['arguments'];

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The arguments as a JSON string (OpenAI `function.arguments`); missing arguments become `{}`. */
export function toolArgumentsAsJson(args: ToolCallArguments): string {
  if (typeof args === 'string') return args.trim() === '' ? '{}' : args;
  return JSON.stringify(args ?? {});
}

/**
 * The arguments as an object (Anthropic `tool_use.input`). Missing or empty arguments become
 * `{}`; a string that is not a JSON object is kept whole as `{ raw: <string> }` so nothing the
 * model wrote is lost.
 */
export function toolArgumentsAsObject(args: ToolCallArguments): Readonly<Record<string, unknown>> {
  if (typeof args !== 'string') return args ?? {};
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isPlainObject(parsed) ? parsed : { raw: args };
  } catch {
    return { raw: args };
  }
}

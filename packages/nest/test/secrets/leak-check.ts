import { renderOutcomeJson, type ToolFailure } from '@toolshield/core';
import { toAnthropicToolResult, toOpenAIToolMessage } from '@toolshield/core/agent';
import { type ToolEvent } from '@toolshield/core/events';
import { toMcpCallToolResult } from '@toolshield/core/internal';

/** The length of the shortest fragment of a secret that counts as a leak. */
export const LEAK_WINDOW = 12;

/** Every text a failure leaves the call as: the payload and its OpenAI, Anthropic and MCP renderings. */
export function renderings(failure: ToolFailure): Record<string, string> {
  return {
    payload: renderOutcomeJson(failure),
    openai: toOpenAIToolMessage(failure).content,
    'openai json': toOpenAIToolMessage(failure, { failureFormat: 'json' }).content,
    anthropic: toAnthropicToolResult(failure).content,
    mcp: toMcpCallToolResult(failure).content[0].text,
    'mcp json': toMcpCallToolResult(failure, { failureFormat: 'json' }).content[0].text,
  };
}

/** The events of a call, one text each, named by type. */
export function eventTexts(events: readonly ToolEvent[]): Record<string, string> {
  return Object.fromEntries(
    events.map((event, i) => [`event ${i} ${event.type}`, JSON.stringify(event)]),
  );
}

/**
 * Where `secret` (or any `LEAK_WINDOW`-character fragment of it) shows in `texts`, as
 * `name: fragment` lines; empty when nothing leaked.
 */
export function leaksOf(secret: string, texts: Record<string, string>): string[] {
  const fragments =
    secret.length <= LEAK_WINDOW
      ? [secret]
      : Array.from({ length: secret.length - LEAK_WINDOW + 1 }, (_, i) =>
          secret.slice(i, i + LEAK_WINDOW),
        );
  const found: string[] = [];
  for (const [name, text] of Object.entries(texts)) {
    const fragment = fragments.find((candidate) => text.includes(candidate));
    if (fragment !== undefined) found.push(`${name}: …${fragment}…`);
  }
  return found;
}

/** A V8 stack frame line, raw (`\n    at f (file.js:1:2)`) or JSON-escaped. */
const FRAME = /(?:\n|\\n)\s*at\s|\bat\s+(?:\S+\s+\()?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+/;

/** The texts that carry a stack frame, by name. */
export function framesIn(texts: Record<string, string>): string[] {
  return Object.entries(texts)
    .filter(([, text]) => FRAME.test(text))
    .map(([name, text]) => `${name}: ${text.slice(0, 300)}`);
}

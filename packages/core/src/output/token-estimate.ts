import { utf8Bytes } from './json-bytes.js';

/**
 * Counts the tokens of a text, for output budgets. The default, {@link estimateTokens}, needs
 * no tokenizer; pass a real one for exact counts, e.g. `countTokens` of `gpt-tokenizer`.
 *
 * @publicApi
 */
export type TokenEstimator = (text: string) => number;

/** UTF-8 bytes per token assumed by {@link estimateTokens}. @publicApi */
export const BYTES_PER_TOKEN = 4;

/**
 * The default token estimate: UTF-8 bytes / 4, rounded up. Measured against OpenAI's o200k
 * tokenizer, JSON and English text run at 4 to 4.6 bytes a token, so the estimate errs on the
 * side of more tokens; text in scripts of three UTF-8 bytes a character (CJK) runs nearer 3
 * bytes a token, where it counts about a quarter too few.
 *
 * @example
 * estimateTokens('{"tempC":21}'); // 3
 * @publicApi
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Bytes(text) / BYTES_PER_TOKEN);
}

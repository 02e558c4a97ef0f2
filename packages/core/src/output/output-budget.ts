import { cutJson, type JsonCutSummary } from './cut-json.js';
import { describeCut } from './describe-cut.js';
import { jsonBytes, utf8Bytes } from './json-bytes.js';
import { BYTES_PER_TOKEN, type TokenEstimator } from './token-estimate.js';

/**
 * How much of a tool's output the model reads. Over budget, the output is cut (see
 * {@link cutJson}) and the model told what was left out. Both limits apply when both are given.
 *
 * @publicApi
 */
export interface OutputBudget {
  /** Largest output in tokens, as the token estimator counts them (at least 256). */
  readonly maxTokens?: number;
  /** Largest output in UTF-8 bytes of its JSON (at least 1,024). */
  readonly maxBytes?: number;
}

/**
 * The budget of every tool unless set otherwise: 25,000 tokens (about 100 KB of JSON), large
 * enough for any answer a model can use, small enough that one result never fills a context.
 *
 * @publicApi
 */
export const DEFAULT_OUTPUT_BUDGET: OutputBudget = Object.freeze({ maxTokens: 25_000 });

/** What the model reads in place of an output that was cut or marked. @publicApi */
export interface NotedOutput {
  /** What the model should know about the output: stale, cut, where the rest is. */
  readonly note: string;
  readonly output: unknown;
}

/** An output cut to fit a budget. @publicApi */
export interface OutputCut extends JsonCutSummary {
  /** The sentence the model reads. */
  readonly note: string;
  /** Where the whole output is kept, when it is. */
  readonly handle?: string;
}

/** Options of {@link fitOutput}. @publicApi */
export interface FitOutputOptions {
  /** Counts tokens for `maxTokens` (default: bytes / 4, see `estimateTokens`). */
  readonly estimateTokens?: TokenEstimator;
  /** Notes the model must read with the output whether or not it is cut (a stale answer). */
  readonly notes?: readonly string[];
  /**
   * Keeps the whole output of a cut and returns its handle, named in the note with how to read
   * the rest (`readWith`).
   */
  readonly keep?: (output: unknown) => string | undefined;
  /** The tool that reads a kept output (default `read_tool_output`). */
  readonly readWith?: string;
}

/** What {@link fitOutput} returns. @publicApi */
export interface FittedOutput {
  /** The output as it was, or a {@link NotedOutput} when it was cut or has notes. */
  readonly output: unknown;
  /** Present when the output was cut. */
  readonly cut?: OutputCut;
}

/** Room kept for the note: a cut is tried within the budget less this, then less what the note took. */
const NOTE_ROOM = 512;
const MAX_ROUNDS = 4;

/**
 * Fits a tool's output (JSON-serialisable) to a budget: an output within it comes back as it
 * is, or wrapped as `{ note, output }` when there are notes; a larger one is cut so that what
 * the model reads is valid JSON within the budget, with a note saying what was cut
 * (`showing 40 of 12,000 items; 1.9 MB omitted`) and, when `keep` kept it, how to read the rest.
 *
 * @example
 * fitOutput(bigSearchResult, { maxTokens: 25_000 }).output;
 * // { note: 'Output cut to fit 25,000 tokens: showing 40 of 12,000 items; 1.9 MB omitted.', output: [...] }
 * @publicApi
 */
export function fitOutput(
  output: unknown,
  budget: OutputBudget,
  options: FitOutputOptions = {},
): FittedOutput {
  const notes = options.notes ?? [];
  if (
    output === undefined ||
    output === null ||
    typeof output === 'number' ||
    typeof output === 'boolean'
  ) {
    return { output: noted(output, notes) };
  }
  const maxBytes = byteLimit(budget);
  const room = notes.length === 0 ? 0 : NOTE_ROOM;
  if (withinBudget(output, maxBytes - room, budget, options))
    return { output: noted(output, notes) };
  const plain: unknown = JSON.parse(JSON.stringify(output) ?? 'null');
  const handle = options.keep?.(plain);
  let limit = maxBytes - NOTE_ROOM;
  for (let round = 0; ; round += 1) {
    const { value, summary } = cutJson(plain, Math.max(0, limit));
    const note = cutNote(summary, budget, handle, options.readWith);
    const fitted: NotedOutput = { note: [...notes, note].join(' '), output: value };
    const text = JSON.stringify(fitted);
    const over = Math.max(utf8Bytes(text) - maxBytes, tokenOverflow(text, budget, options));
    if (over <= 0 || round === MAX_ROUNDS) {
      // Past the rounds (a token estimator that never agrees), the note alone is sent.
      const sent = over <= 0 ? fitted : { note: fitted.note, output: null };
      return { output: sent, cut: { ...summary, note, ...(handle ? { handle } : {}) } };
    }
    limit -= over;
  }
}

/** The budget in bytes: `maxBytes`, or `maxTokens` at 4 bytes a token, whichever is less. */
function byteLimit(budget: OutputBudget): number {
  const fromTokens = budget.maxTokens === undefined ? Infinity : budget.maxTokens * BYTES_PER_TOKEN;
  return Math.min(budget.maxBytes ?? Infinity, fromTokens);
}

function withinBudget(
  output: unknown,
  maxBytes: number,
  budget: OutputBudget,
  options: FitOutputOptions,
): boolean {
  if (typeof output === 'string' && output.length * 6 + 2 <= maxBytes && !options.estimateTokens) {
    return true;
  }
  if (jsonBytes(output) > maxBytes) return false;
  return (
    options.estimateTokens === undefined ||
    tokenOverflow(JSON.stringify(output), budget, options) <= 0
  );
}

/** Bytes to take off so a custom estimator's count fits `maxTokens` (0 when it fits). */
function tokenOverflow(text: string, budget: OutputBudget, options: FitOutputOptions): number {
  if (options.estimateTokens === undefined || budget.maxTokens === undefined) return 0;
  const tokens = options.estimateTokens(text);
  if (tokens <= budget.maxTokens) return 0;
  return Math.ceil(((tokens - budget.maxTokens) / tokens) * utf8Bytes(text)) + 1;
}

function noted(output: unknown, notes: readonly string[]): unknown {
  return notes.length === 0 ? output : ({ note: notes.join(' '), output } satisfies NotedOutput);
}

function cutNote(
  summary: JsonCutSummary,
  budget: OutputBudget,
  handle: string | undefined,
  readWith = 'read_tool_output',
): string {
  const limit =
    budget.maxTokens !== undefined
      ? `${budget.maxTokens.toLocaleString('en-US')} tokens`
      : `${(budget.maxBytes ?? 0).toLocaleString('en-US')} bytes`;
  const rest = handle
    ? ` The whole output is kept for a while: call ${readWith} with {"handle":"${handle}","offset":0} to read it in parts.`
    : '';
  return `Output cut to fit ${limit}: ${describeCut(summary)}.${rest}`;
}

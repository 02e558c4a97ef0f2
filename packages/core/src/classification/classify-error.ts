import { InternalToolError } from '../errors/internal.error.js';
import { isToolErrorType, type ToolErrorType } from '../errors/tool-error-type.js';
import { isToolError, type ToolError } from '../errors/tool-error.js';
import { oneLine } from '../redaction/one-line.js';
import { causeChain } from './cause-chain.js';
import { chaosFactsOf } from './chaos-mark.js';
import { createToolError } from './create-tool-error.js';
import { describeThrown } from './describe-thrown.js';
import { recogniseError, type Recognition } from './recognise-error.js';

/**
 * A user-supplied mapping, checked before the built-in ones: return a {@link ToolError} (used
 * as is), a taxonomy member (the error is wrapped in that type), or `undefined` to pass. A rule
 * that throws is skipped.
 *
 * @publicApi
 */
export type ClassificationRule = (error: unknown) => ToolError | ToolErrorType | undefined;

/** @publicApi */
export interface ClassifyErrorOptions {
  /** Checked in order, before anything else. */
  readonly rules?: readonly ClassificationRule[];
  /** The current time in ms, to turn `Retry-After` dates into delays. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Longest classified message. The model's sentence is cut much shorter, but only after it is
 * redacted: a secret that straddles that cut must still be whole here for its rule to see it.
 */
const MAX_MESSAGE_LENGTH = 8192;
const UNREADABLE = 'The tool failed with an unreadable error.';

/**
 * Maps anything thrown to the closed taxonomy, and never throws.
 *
 * In order: the `rules`; our own {@link ToolError}s, returned as they are; then each link of
 * the `cause` chain (bounded) by HTTP status (Nest `HttpException` and `ThrottlerException`,
 * axios, `status`/`statusCode`, with `Retry-After` honoured), by error code (Node, undici,
 * opossum), by name (`AbortError`, `TimeoutError`, JSON `SyntaxError`, undici's
 * `fetch failed`) and as a validation report (class-validator, Zod). A JSON `SyntaxError` is
 * `invalid_output` (the tool could not read its upstream's answer; the model's own malformed
 * arguments never get here, `parseToolArguments` reports them as `invalid_input`), or
 * `upstream_unavailable` when an HTTP 5xx status travels with it in the cause chain. Everything else, thrown
 * strings, `undefined`, plain objects and symbols included, is `internal`, with a safe message.
 * The original value is kept as the `cause`; status code, error code, url and method go to
 * `metadata`, and so do the chaos facts (`chaos: true`, `chaosFault`, `chaosRule`) of a fault
 * injected on purpose, found anywhere in the cause chain.
 *
 * @example
 * classifyError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })).type; // 'network'
 *
 * @publicApi
 */
export function classifyError(error: unknown, options: ClassifyErrorOptions = {}): ToolError {
  try {
    return (
      applyRules(error, options.rules ?? []) ?? classifyBuiltIn(error, options.now ?? Date.now)
    );
  } catch {
    return new InternalToolError(UNREADABLE, { cause: error, captureStack: false });
  }
}

function applyRules(error: unknown, rules: readonly ClassificationRule[]): ToolError | undefined {
  for (const rule of rules) {
    let verdict: unknown;
    try {
      verdict = rule(error);
    } catch {
      continue;
    }
    if (isToolError(verdict)) return verdict;
    if (isToolErrorType(verdict))
      return createToolError(verdict, shortMessage(error), {
        cause: error,
        metadata: chaosFactsOf(error),
      });
  }
  return undefined;
}

function classifyBuiltIn(error: unknown, now: () => number): ToolError {
  let fallback: { link: unknown; recognition: Recognition } | undefined;
  for (const link of causeChain(error)) {
    if (isToolError(link)) return link;
    const recognition = recogniseError(link, now());
    if (recognition && !recognition.weak) return build(error, link, recognition);
    fallback ??= recognition && { link, recognition };
  }
  return fallback
    ? build(error, fallback.link, fallback.recognition)
    : new InternalToolError(shortMessage(error), {
        cause: error,
        captureStack: false,
        metadata: chaosFactsOf(error),
      });
}

function build(error: unknown, link: unknown, recognition: Recognition): ToolError {
  return createToolError(recognition.type, recognition.message ?? linkedMessage(error, link), {
    cause: error,
    captureStack: false,
    ...(recognition.retryAfterMs === undefined ? {} : { retryAfterMs: recognition.retryAfterMs }),
    ...(recognition.retryable === undefined ? {} : { retryable: recognition.retryable }),
    ...(recognition.issues === undefined ? {} : { issues: recognition.issues }),
    metadata: { ...recognition.metadata, ...chaosFactsOf(error) },
  });
}

/** The outer message, with the recognised cause's message added when it says something new. */
function linkedMessage(error: unknown, link: unknown): string {
  const outer = shortMessage(error);
  if (link === error) return outer;
  const inner = shortMessage(link);
  return outer.includes(inner) ? outer : oneLine(`${outer}: ${inner}`, MAX_MESSAGE_LENGTH);
}

function shortMessage(value: unknown): string {
  return oneLine(describeThrown(value), MAX_MESSAGE_LENGTH) || UNREADABLE;
}

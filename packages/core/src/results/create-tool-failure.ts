import type { ApprovalError } from '../errors/approval.errors.js';
import type { ToolError, ValidationIssue } from '../errors/tool-error.js';
import type { ToolNotFoundError } from '../errors/tool-not-found.error.js';
import type { InvalidInputError } from '../errors/invalid-input.error.js';
import {
  createFailureSanitizer,
  type FailureSanitizer,
  type FailureSanitizerOptions,
} from '../redaction/failure-sanitizer.js';
import { failureSuggestions } from './failure-suggestions.js';
import { requestMayHaveLeft } from './request-may-have-left.js';
import type { ToolOutcomeContext } from './tool-outcome-context.js';
import type { ToolCallMetadata, ToolFailure } from './tool-outcome.js';

/**
 * How a failure is sanitised: a `redactor` and `maxErrorLength` (default 200), or a
 * `sanitizer` built once with {@link createFailureSanitizer}, which wins over both.
 *
 * @publicApi
 */
export interface CreateToolFailureOptions extends FailureSanitizerOptions {
  readonly sanitizer?: FailureSanitizer;
}

const FALLBACK_SENTENCE = 'The tool failed.';
/** Most issues a failure lists. */
const MAX_ISSUES = 50;
const defaultSanitizer = createFailureSanitizer();

/**
 * The {@link ToolFailure} payload for a classified error: one sentence for the model (the first
 * line that is not a stack frame, redacted, then cut), the type's retry facts, issues or
 * did-you-mean names when the error carries them, next-step suggestions, and metadata (the
 * error's and the context's, plus attempts and duration). A failure after the request may
 * have left (a timeout, a connection dropped after sending, a cancellation) of a tool with side
 * effects (`ctx.sideEffects`, default `true`) says the effect may have happened
 * (`effect: 'unknown'`, not recoverable, `metadata.idempotencyKey`), unless the error itself
 * says whether it is `recoverable`; the error's own `suggestions` always win. Every text and value in it went
 * through the same {@link FailureSanitizer}: redacted, stripped of stack frames, capped.
 *
 * @example
 * createToolFailure(classifyError(thrown), { tool: 'get_weather', callId: 'call_1', durationMs: 5003, retryCount: 2, retryMax: 2 });
 *
 * @publicApi
 */
export function createToolFailure(
  error: ToolError,
  ctx: ToolOutcomeContext,
  options: CreateToolFailureOptions = {},
): ToolFailure {
  const sanitizer =
    options.sanitizer ??
    (options.redactor === undefined && options.maxErrorLength === undefined
      ? defaultSanitizer
      : createFailureSanitizer(options));
  const retryCount = ctx.retryCount ?? 0;
  const issues = (error as Partial<InvalidInputError>).issues ?? [];
  const { availableTools = [], didYouMean = [] } = error as Partial<ToolNotFoundError>;
  const retryAfterMs = error.retryAfterMs;
  const effectUnknown =
    (ctx.sideEffects ?? true) &&
    error.declaredRecoverable === undefined &&
    requestMayHaveLeft(error);
  return {
    success: false,
    tool: ctx.tool,
    callId: ctx.callId,
    error: toSentence(sanitizer.text(error.message)),
    errorType: error.type,
    recoverable: effectUnknown ? false : error.recoverable,
    ...(effectUnknown ? { effect: 'unknown' as const } : {}),
    retryCount,
    retryMax: ctx.retryMax ?? 0,
    ...(retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? { retryAfterMs: Math.ceil(retryAfterMs) }
      : {}),
    ...(issues.length > 0
      ? { issues: issues.slice(0, MAX_ISSUES).map((issue) => sanitizeIssue(issue, sanitizer)) }
      : {}),
    ...(availableTools.length > 0 ? { availableTools: [...availableTools] } : {}),
    ...(didYouMean.length > 0 ? { didYouMean: [...didYouMean] } : {}),
    suggestions: suggestionsFor(error, ctx, sanitizer, effectUnknown),
    ...approvalOf(error),
    metadata: failureMetadata(error, ctx, sanitizer, retryCount, effectUnknown),
  };
}

/** The approval an approval error carries (its arguments are redacted already). */
function approvalOf(error: ToolError): Pick<ToolFailure, 'approval'> {
  const { approval } = error as Partial<ApprovalError>;
  return approval === undefined ? {} : { approval };
}

/** The next steps; the error's own go through the sanitizer like every text it carries. */
function suggestionsFor(
  error: ToolError,
  ctx: ToolOutcomeContext,
  sanitizer: FailureSanitizer,
  effectUnknown: boolean,
): string[] {
  const suggestions = failureSuggestions(error, ctx.retryCount, {
    effectUnknown,
    retriesWithheld: ctx.retriesWithheld,
  });
  return error.suggestions?.length ? suggestions.map((line) => sanitizer.text(line)) : suggestions;
}

function toSentence(line: string): string {
  if (line === '') return FALLBACK_SENTENCE;
  return /[.!?…]$/.test(line) ? line : `${line}.`;
}

function sanitizeIssue(issue: ValidationIssue, sanitizer: FailureSanitizer): ValidationIssue {
  return {
    path: sanitizer.text(String(issue.path)),
    message: sanitizer.text(String(issue.message)),
    ...(issue.constraint === undefined
      ? {}
      : { constraint: sanitizer.text(String(issue.constraint)) }),
  };
}

function failureMetadata(
  error: ToolError,
  ctx: ToolOutcomeContext,
  sanitizer: FailureSanitizer,
  retryCount: number,
  effectUnknown: boolean,
): ToolCallMetadata {
  const key =
    effectUnknown && ctx.idempotencyKey !== undefined
      ? { idempotencyKey: ctx.idempotencyKey }
      : undefined;
  // The error's own metadata object when there is nothing to add: a sanitiser remembers frozen ones.
  const raw =
    ctx.metadata === undefined && key === undefined
      ? error.metadata
      : { ...error.metadata, ...ctx.metadata, ...key };
  const facts = sanitizer.value(raw) as Record<string, unknown>;
  return {
    ...facts,
    ...(ctx.retriesWithheld ? { retriesWithheld: true } : {}),
    attempts: retryCount + 1,
    durationMs: ctx.durationMs,
  };
}

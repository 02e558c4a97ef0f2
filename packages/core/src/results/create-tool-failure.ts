import type { ToolError, ValidationIssue } from '../errors/tool-error.js';
import type { ToolNotFoundError } from '../errors/tool-not-found.error.js';
import type { InvalidInputError } from '../errors/invalid-input.error.js';
import { failureSuggestions } from './failure-suggestions.js';
import { oneLine } from './one-line.js';
import { defaultRedactor, type Redactor } from './redactor.js';
import type { ToolOutcomeContext } from './tool-outcome-context.js';
import type { ToolCallMetadata, ToolFailure } from './tool-outcome.js';

/** @publicApi */
export interface CreateToolFailureOptions {
  /** Removes secrets from the message, issues and metadata. Default {@link defaultRedactor}. */
  readonly redactor?: Redactor;
  /** Longest `error` sentence, in characters. Default 200. */
  readonly maxErrorLength?: number;
}

const DEFAULT_MAX_ERROR_LENGTH = 200;
const FALLBACK_SENTENCE = 'The tool failed.';

/**
 * The {@link ToolFailure} payload for a classified error: one redacted sentence for the model
 * (first line only, no stack, capped), the type's retry facts, issues or did-you-mean names
 * when the error carries them, next-step suggestions, and redacted metadata (the error's and
 * the context's, plus attempts and duration).
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
  const redactor = options.redactor ?? defaultRedactor;
  const retryCount = ctx.retryCount ?? 0;
  const issues = (error as Partial<InvalidInputError>).issues ?? [];
  const { availableTools = [], didYouMean = [] } = error as Partial<ToolNotFoundError>;
  const retryAfterMs = error.retryAfterMs;
  return {
    success: false,
    tool: ctx.tool,
    callId: ctx.callId,
    error: toSentence(
      redactor.redactText(error.message),
      options.maxErrorLength ?? DEFAULT_MAX_ERROR_LENGTH,
    ),
    errorType: error.type,
    recoverable: error.recoverable,
    retryCount,
    retryMax: ctx.retryMax ?? 0,
    ...(retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
      ? { retryAfterMs: Math.ceil(retryAfterMs) }
      : {}),
    ...(issues.length > 0 ? { issues: issues.map((issue) => redactIssue(issue, redactor)) } : {}),
    ...(availableTools.length > 0 ? { availableTools: [...availableTools] } : {}),
    ...(didYouMean.length > 0 ? { didYouMean: [...didYouMean] } : {}),
    suggestions: failureSuggestions(error, retryCount),
    metadata: failureMetadata(error, ctx, redactor, retryCount),
  };
}

function toSentence(message: string, maxLength: number): string {
  const line = oneLine(message, maxLength);
  if (line === '') return FALLBACK_SENTENCE;
  return /[.!?…]$/.test(line) || line.length >= maxLength ? line : `${line}.`;
}

function redactIssue(issue: ValidationIssue, redactor: Redactor): ValidationIssue {
  return {
    path: redactor.redactText(issue.path),
    message: redactor.redactText(issue.message),
    ...(issue.constraint === undefined ? {} : { constraint: issue.constraint }),
  };
}

function failureMetadata(
  error: ToolError,
  ctx: ToolOutcomeContext,
  redactor: Redactor,
  retryCount: number,
): ToolCallMetadata {
  const facts = redactor.redactValue({ ...error.metadata, ...ctx.metadata }) as Record<
    string,
    unknown
  >;
  return { ...facts, attempts: retryCount + 1, durationMs: ctx.durationMs };
}

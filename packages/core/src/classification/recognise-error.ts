import { ToolErrorType } from '../errors/tool-error-type.js';
import type { ValidationIssue } from '../errors/tool-error.js';
import { toolErrorTypeForHttpStatus } from './http-status.js';
import { readHttpErrorFacts, type HttpErrorFacts } from './http-error-facts.js';
import { readProperty, readString } from './read-property.js';
import { parseRetryAfter } from './retry-after.js';
import { toolErrorTypeForCode } from './system-error-codes.js';
import { issuesFromMessages, readValidationIssues } from './validation-errors.js';

/** What one link of a thrown value's cause chain reveals. */
export interface Recognition {
  readonly type: ToolErrorType;
  /**
   * A vague signal (an abort, `fetch failed`) that a more specific cause deeper in the chain
   * overrides: an abort caused by a deadline is a timeout, `fetch failed` caused by
   * `UND_ERR_CONNECT_TIMEOUT` is a timeout.
   */
  readonly weak?: boolean;
  readonly message?: string;
  readonly retryAfterMs?: number;
  /** Overrides the type's `retryable` trait (a name that does not resolve is no blip). */
  readonly retryable?: boolean;
  readonly issues?: readonly ValidationIssue[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const VALIDATION_FAILED = 'Arguments failed validation.';
/**
 * A JSON `SyntaxError` that reaches the classifier was thrown inside the tool body: the
 * model's arguments are parsed (by `parseToolArguments`) before the tool runs, and their
 * errors are `invalid_input` already. So the tool could not read what its upstream answered,
 * typically an HTML error page given to `response.json()` (ADR 0007).
 */
const UNREADABLE_ANSWER = "The upstream's answer is not valid JSON:";
const WEAK_CODES: ReadonlySet<string> = new Set(['ABORT_ERR', 'ERR_CANCELED']);
/**
 * Network codes that are no blip: `ENOTFOUND` says the name does not exist (a wrong host, a
 * removed record), which retrying within seconds does not change. `EAI_AGAIN`, the resolver's
 * "try again", stays retryable.
 */
const NOT_RETRIED_CODES: ReadonlySet<string> = new Set(['ENOTFOUND']);

/** Recognises one link by HTTP status, then error code, then error name, then validation report. */
export function recogniseError(link: unknown, nowMs: number): Recognition | undefined {
  return byHttpStatus(link, nowMs) ?? byCode(link) ?? byName(link) ?? byValidationReport(link);
}

function byHttpStatus(link: unknown, nowMs: number): Recognition | undefined {
  const facts = readHttpErrorFacts(link);
  const type = facts && toolErrorTypeForHttpStatus(facts.status);
  if (facts === undefined || type === undefined) return undefined;
  const retryAfterMs = facts.headers && parseRetryAfter(facts.headers, nowMs);
  const issues =
    type === ToolErrorType.InvalidInput && facts.validationMessages
      ? issuesFromMessages(facts.validationMessages)
      : undefined;
  const message = issues
    ? VALIDATION_FAILED
    : link instanceof Error
      ? undefined
      : describeStatus(link, facts);
  return {
    type,
    ...(issues === undefined ? {} : { issues }),
    ...(message === undefined ? {} : { message }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    metadata: {
      statusCode: facts.status,
      ...(facts.method === undefined ? {} : { method: facts.method }),
      ...(facts.url === undefined ? {} : { url: facts.url }),
    },
  };
}

/**
 * The message of a status-bearing value that is not an `Error` (a thrown fetch `Response`, an
 * SDK's plain error object): `HTTP 503 Service Unavailable from GET https://…`.
 */
function describeStatus(link: unknown, facts: HttpErrorFacts): string {
  const statusText =
    readString(link, 'statusText') ?? readString(readProperty(link, 'response'), 'statusText');
  const target =
    facts.url === undefined ? '' : ` from ${facts.method ? `${facts.method} ` : ''}${facts.url}`;
  return `HTTP ${facts.status}${statusText ? ` ${statusText}` : ''}${target}`;
}

function byCode(link: unknown): Recognition | undefined {
  const code = readString(link, 'code');
  const type = code && toolErrorTypeForCode(code);
  if (code === undefined || !type) return undefined;
  return {
    type,
    metadata: { code },
    ...(WEAK_CODES.has(code) ? { weak: true } : {}),
    ...(NOT_RETRIED_CODES.has(code) ? { retryable: false } : {}),
  };
}

function byName(link: unknown): Recognition | undefined {
  const name = readString(link, 'name');
  const message = readString(link, 'message') ?? '';
  if (name === 'AbortError') return { type: ToolErrorType.Cancelled, weak: true };
  if (name === 'TimeoutError') return { type: ToolErrorType.Timeout };
  if (name === 'SyntaxError' && message.includes('JSON'))
    return { type: ToolErrorType.InvalidOutput, message: `${UNREADABLE_ANSWER} ${message}` };
  if (name === 'TypeError' && message === 'fetch failed')
    return { type: ToolErrorType.Network, weak: true };
  return undefined;
}

function byValidationReport(link: unknown): Recognition | undefined {
  const issues = readValidationIssues(link);
  return issues && { type: ToolErrorType.InvalidInput, issues, message: VALIDATION_FAILED };
}

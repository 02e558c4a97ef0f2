import { TOOL_ERROR_TYPE_TRAITS, type ToolErrorType } from './tool-error-type.js';

/**
 * A field-level problem with a tool's arguments.
 *
 * @publicApi
 */
export interface ValidationIssue {
  /** Dotted path of the offending field (`address.zip`, `items.2.id`); empty for the root. */
  readonly path: string;
  /** What is wrong, in one short sentence. */
  readonly message: string;
  /** The rule that failed (`isEmail`, `required`, ...), when known. */
  readonly constraint?: string;
}

/** @publicApi */
export interface ToolErrorOptions {
  /** The underlying error. */
  readonly cause?: unknown;
  /** The tool the error belongs to, when known where it is thrown. */
  readonly toolName?: string;
  /** When a retry may succeed, in ms from now (Retry-After, breaker reset). */
  readonly retryAfterMs?: number;
  /**
   * Whether toolshield's retry policy may repeat the call with the same idempotency key
   * (overrides the type's default). A type retried by default that is told `false` is not
   * recoverable either, unless `recoverable` says otherwise.
   */
  readonly retryable?: boolean;
  /**
   * Whether calling the tool again can succeed (see `ToolFailure.recoverable`), instead of
   * what the type, `retryable` and the call's side effects make of it: what it sets is what
   * the model reads, even after a call that may have taken effect.
   */
  readonly recoverable?: boolean;
  /** The next steps the model reads instead of the type's default ones. */
  readonly suggestions?: readonly string[];
  /** Facts for developers and the model: status code, url, error code, ... (redacted before display). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /**
   * `false` builds the error without a stack trace (its `stack` is then just its first line).
   * For errors raised where a stack says nothing a developer needs and costs most of the
   * failure (an open breaker's rejection, a wrapper around an error that has its own stack):
   * capturing one is the largest cost of such a fast failure. Default `true`.
   */
  readonly captureStack?: boolean;
}

/** Whether the stack depth can be set (not under frozen intrinsics). */
const STACK_LIMIT_WRITABLE =
  Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/**
 * Base class of the taxonomy: every failure of a tool call is, or is classified into, one
 * subclass of `ToolError`. Throw the subclasses from tools to say precisely what happened.
 *
 * @publicApi
 */
export abstract class ToolError extends Error {
  /** The member of the closed taxonomy this error belongs to. */
  abstract readonly type: ToolErrorType;
  readonly toolName?: string;
  readonly retryAfterMs?: number;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** `ToolErrorOptions.recoverable`: what the error itself says about calling again, when it says it. */
  readonly declaredRecoverable?: boolean;
  /** `ToolErrorOptions.suggestions`: the next steps the error itself gives the model. */
  readonly suggestions?: readonly string[];
  private readonly retryableOverride?: boolean;

  constructor(message: string, options: ToolErrorOptions = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    const withoutStack = options.captureStack === false && STACK_LIMIT_WRITABLE;
    if (withoutStack) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (withoutStack) Error.stackTraceLimit = stackTraceLimit;
    this.name = new.target.name;
    this.toolName = options.toolName;
    this.retryAfterMs = options.retryAfterMs;
    this.retryableOverride = options.retryable;
    this.declaredRecoverable = options.recoverable;
    this.suggestions = options.suggestions && [...options.suggestions];
    this.metadata = options.metadata ?? {};
  }

  /** Whether an automatic retry may succeed (the type's default unless overridden). */
  get retryable(): boolean {
    return this.retryableOverride ?? TOOL_ERROR_TYPE_TRAITS[this.type].retryable;
  }

  /**
   * Whether calling the tool again can succeed: `recoverable` when given; else `false` when a
   * type that recovers by being retried (timeout, network, ...) is told it is not retryable;
   * else the type's default (see `ToolFailure.recoverable`).
   */
  get recoverable(): boolean {
    if (this.declaredRecoverable !== undefined) return this.declaredRecoverable;
    const traits = TOOL_ERROR_TYPE_TRAITS[this.type];
    if (traits.retryable && this.retryableOverride === false) return false;
    return this.retryable || traits.recoverable;
  }
}

/** Whether `value` is a {@link ToolError} (also across copies of this package). @publicApi */
export function isToolError(value: unknown): value is ToolError {
  return (
    value instanceof ToolError ||
    (value instanceof Error &&
      typeof (value as Partial<ToolError>).type === 'string' &&
      Object.hasOwn(TOOL_ERROR_TYPE_TRAITS, (value as ToolError).type) &&
      'metadata' in value)
  );
}

import type { ToolEvent } from '../events/tool-event.js';
import { toJsonSafe } from '../results/json-safe.js';
import { oneLine } from './one-line.js';
import { REDACTED } from './redaction-rule.js';
import { defaultRedactor, type Redactor } from './redactor.js';
import { stripStackFrames } from './stack-frames.js';
import { memoizeText } from './text-memo.js';

/** @publicApi */
export interface FailureSanitizerOptions {
  /** Removes secrets. Default {@link defaultRedactor}. */
  readonly redactor?: Redactor;
  /** Longest one-line text (the `error` sentence, an issue, an event's message). Default 200. */
  readonly maxErrorLength?: number;
}

/**
 * What every text and value goes through before it leaves a tool call (the `ToolFailure`, its
 * renderings, the events and what telemetry makes of them). In this order: redact, drop stack
 * frames, cut. Redacting before cutting means a secret that straddles the cut is still seen
 * whole by its rule.
 *
 * @publicApi
 */
export interface FailureSanitizer {
  /**
   * One line for the model: the first line of `text` that is not a stack frame, redacted,
   * frames escaped inside it removed, whitespace collapsed, cut to `maxErrorLength`.
   */
  text(text: string): string;
  /**
   * A JSON-safe copy of `value` (metadata): secret-named keys hidden, strings redacted,
   * `stack` keys dropped, frames removed from every string, strings cut to 1,000 characters.
   */
  value(value: unknown): unknown;
  /** The event as it may leave the executor (an attempt's message is sanitised as {@link FailureSanitizer.text}). */
  event(event: ToolEvent): ToolEvent;
}

/** Longest one-line text, by default. @publicApi */
export const DEFAULT_MAX_ERROR_LENGTH = 200;
/** Longest string in failure metadata. @publicApi */
export const MAX_METADATA_TEXT_LENGTH = 1000;
/**
 * Longest part of a line that is redacted: beyond it nothing reaches the model anyway, and a
 * pathological message cannot make redaction slow.
 */
const MAX_SCANNED_LENGTH = 8192;

/**
 * The sanitizer of everything that leaves a tool call.
 *
 * @example
 * const sanitizer = createFailureSanitizer({ redactor: createRedactor([/acme_\w+/g]) });
 * sanitizer.text('login failed: password=hunter22\n    at login (/app/auth.js:10:3)'); // 'login failed: password=[REDACTED]'
 *
 * @publicApi
 */
export function createFailureSanitizer(options: FailureSanitizerOptions = {}): FailureSanitizer {
  const redactor = options.redactor ?? defaultRedactor;
  const maxLength = options.maxErrorLength ?? DEFAULT_MAX_ERROR_LENGTH;
  // Both text functions are pure: a text repeated failure after failure is sanitised once.
  const text = memoizeText((raw: string): string => {
    const line = oneLine(raw, MAX_SCANNED_LENGTH);
    return oneLine(stripStackFrames(redactor.redactText(line)), maxLength);
  });
  const metadataText = (raw: string): string =>
    oneLineIfLong(stripStackFrames(raw), MAX_METADATA_TEXT_LENGTH);
  const { hidesKey } = redactor;
  const redactThenCut = memoizeText((raw: string): string =>
    metadataText(redactor.redactText(raw)),
  );
  const sanitizeValue = (raw: unknown): unknown => {
    if (isEmptyObject(raw)) return {};
    return hidesKey
      ? toJsonSafe(raw, {
          mapString: redactThenCut,
          hidesKey,
          hiddenValue: REDACTED,
          omitsKey: isStackKey,
        })
      : toJsonSafe(redactor.redactValue(raw), { mapString: metadataText, omitsKey: isStackKey });
  };
  // Metadata that toolshield builds once and reuses (an open breaker's) is sanitised once.
  // Weak: one entry per such object still alive (a breaker's, per state), never per call.
  const frozenFlat = new WeakMap<object, unknown>();
  const value = (raw: unknown): unknown => {
    if (!isFrozenFlat(raw)) return sanitizeValue(raw);
    let made = frozenFlat.get(raw);
    if (made === undefined) {
      made = Object.freeze(sanitizeValue(raw));
      frozenFlat.set(raw, made);
    }
    return made;
  };
  return {
    text,
    value,
    event: (event) => {
      switch (event.type) {
        case 'attempt.failed':
          return { ...event, message: text(event.message) };
        case 'breaker.state_changed':
        case 'retry.withheld':
          return { ...event, key: text(event.key) };
        default:
          return event;
      }
    },
  };
}

/** A frozen object whose values are all primitives: it cannot change, so neither can its copy. */
function isFrozenFlat(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) return false;
  }
  return true;
}

/** Most failures carry no metadata: nothing to copy. */
function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return Object.getPrototypeOf(value) === Object.prototype;
}

function isStackKey(key: string): boolean {
  return key === 'stack';
}

/** Multi-line metadata (a response body) keeps its lines unless it is too long. */
function oneLineIfLong(text: string, maxLength: number): string {
  return text.length > maxLength ? oneLine(text, maxLength) : text;
}

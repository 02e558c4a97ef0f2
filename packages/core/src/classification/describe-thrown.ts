import { oneLine } from '../redaction/one-line.js';
import { readString } from './read-property.js';

/**
 * Longest JSON rendering of a thrown object. Generous: the model's sentence is cut later, after
 * redaction, so a secret is never cut in half here.
 */
const MAX_JSON_PREVIEW = 4096;

/**
 * A readable description of anything that was thrown, never throwing itself: the message of
 * an error (or of any object with a `message`), the text of a thrown string, and a labelled
 * rendering of other values (`Non-error value thrown: 42`, `Non-error object thrown: {"a":1}`).
 * Circular objects, throwing getters, revoked proxies and symbols are all handled.
 *
 * @publicApi
 */
export function describeThrown(value: unknown): string {
  try {
    return describe(value);
  } catch {
    return 'Non-error value thrown (unreadable).';
  }
}

function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value.trim() === '' ? 'An empty string was thrown.' : value;
    case 'object':
      return value === null ? 'Non-error value thrown: null' : describeObject(value);
    case 'function':
      return `Non-error value thrown: function ${value.name || '(anonymous)'}`;
    case 'symbol':
      return `Non-error value thrown: ${value.toString()}`;
    default:
      return `Non-error value thrown: ${String(value)}`;
  }
}

function describeObject(value: object): string {
  const message = readString(value, 'message');
  if (message !== undefined && message.trim() !== '') return message;
  const name = readString(value, 'name');
  if (value instanceof Error) return name ?? 'Error';
  const stackHead = oneLine(readString(value, 'stack') ?? '', MAX_JSON_PREVIEW);
  if (stackHead !== '') return stackHead;
  return `Non-error object thrown: ${previewJson(value) ?? `[object ${name ?? 'Object'}]`}`;
}

/** A thrown object's `stack` stays in the developer log; it is left out of its description. */
function withoutStacks(key: string, item: unknown): unknown {
  return key === 'stack' ? undefined : item;
}

function previewJson(value: object): string | undefined {
  try {
    const json = JSON.stringify(value, withoutStacks);
    if (json === undefined) return undefined;
    return json.length > MAX_JSON_PREVIEW ? `${json.slice(0, MAX_JSON_PREVIEW)}…` : json;
  } catch {
    return undefined;
  }
}

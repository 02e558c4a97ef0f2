import { readString } from './read-property.js';

const MAX_JSON_PREVIEW = 120;

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
  return `Non-error object thrown: ${previewJson(value) ?? `[object ${name ?? 'Object'}]`}`;
}

function previewJson(value: object): string | undefined {
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return undefined;
    return json.length > MAX_JSON_PREVIEW ? `${json.slice(0, MAX_JSON_PREVIEW)}…` : json;
  } catch {
    return undefined;
  }
}

import { cutJson } from './cut-json.js';
import { jsonBytes } from './json-bytes.js';

/** One part of a kept output, as the read-more tool returns it. @publicApi */
export interface OutputPage {
  /** `'items'` of an array output, else `'characters'` of its JSON text (a string's own text). */
  readonly unit: 'items' | 'characters';
  readonly offset: number;
  /** Where the next part starts; absent on the last part. */
  readonly nextOffset?: number;
  /** Items, or characters, in the whole output. */
  readonly total: number;
  /** The items of this part (arrays). */
  readonly items?: readonly unknown[];
  /** The text of this part (anything else). */
  readonly text?: string;
}

/** Bytes of a page's own fields, kept free beside its content. */
const PAGE_ROOM = 128;

/**
 * The part of a kept output from `offset` that fits `maxBytes`: whole items of an array (the
 * first one cut if it alone is too big), or characters of any other output's text (a string
 * as it is, anything else as JSON), never splitting a surrogate pair.
 *
 * @publicApi
 */
export function readOutputPage(output: unknown, offset: number, maxBytes: number): OutputPage {
  const room = Math.max(2, maxBytes - PAGE_ROOM);
  if (Array.isArray(output)) {
    const start = Math.min(Math.max(0, Math.floor(offset)), output.length);
    const { value } = cutJson(output.slice(start), room);
    const items = value as unknown[];
    const next = start + Math.max(1, items.length);
    return {
      unit: 'items',
      offset: start,
      total: output.length,
      items,
      ...(next < output.length ? { nextOffset: next } : {}),
    };
  }
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  const start = Math.min(Math.max(0, Math.floor(offset)), text.length);
  let end = start;
  let bytes = 2;
  while (end < text.length) {
    const units = isPairAt(text, end) ? 2 : 1;
    const size = jsonBytes(text.slice(end, end + units)) - 2;
    if (bytes + size > room && end > start) break;
    bytes += size;
    end += units;
  }
  return {
    unit: 'characters',
    offset: start,
    total: text.length,
    text: text.slice(start, end),
    ...(end < text.length ? { nextOffset: end } : {}),
  };
}

function isPairAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

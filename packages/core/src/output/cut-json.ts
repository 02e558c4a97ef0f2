import { jsonBytes, jsonCharBytes, jsonStringBytes } from './json-bytes.js';

/** What a cut left out, for the note the model reads. @publicApi */
export interface JsonCutSummary {
  /** UTF-8 bytes of the whole value's JSON. */
  readonly totalBytes: number;
  /** UTF-8 bytes of the cut value's JSON. */
  readonly shownBytes: number;
  /** The largest array that was cut: items kept and items it had. */
  readonly items?: { readonly shown: number; readonly total: number };
  /** The longest string that was cut: characters kept and characters it had. */
  readonly characters?: { readonly shown: number; readonly total: number };
  /** Object properties left out. */
  readonly droppedKeys: number;
}

/** A JSON value cut to a byte budget. @publicApi */
export interface JsonCut {
  /** The value, or a smaller one of the same shape whose JSON fits the budget. */
  readonly value: unknown;
  /** Whether anything was left out. */
  readonly cut: boolean;
  readonly summary: JsonCutSummary;
}

/** Marks the end of a string that was cut. */
const ELLIPSIS = '…';

/**
 * Cuts a plain JSON value (what `JSON.parse` returns) so that its JSON takes at most `maxBytes`
 * UTF-8 bytes. The result is a real value, so its JSON is always valid: arrays keep their first
 * items whole, strings are cut between characters (never inside an escape or a surrogate pair)
 * and end in `…`, objects keep every property that fits, sharing the budget so that one huge
 * property does not push out the small ones. A value that fits comes back as it is.
 *
 * @example
 * cutJson({ results: hugeList, total: 12000 }, 100_000).summary.items; // { shown: 40, total: 12000 }
 * @publicApi
 */
export function cutJson(value: unknown, maxBytes: number): JsonCut {
  const totalBytes = jsonBytes(value);
  const tally: Tally = { droppedKeys: 0 };
  if (totalBytes <= maxBytes) {
    return { value, cut: false, summary: { totalBytes, shownBytes: totalBytes, droppedKeys: 0 } };
  }
  const fitted = fit(value, totalBytes, maxBytes, tally) ?? { value: null, bytes: 4 };
  return {
    value: fitted.value,
    cut: true,
    summary: {
      totalBytes,
      shownBytes: fitted.bytes,
      droppedKeys: tally.droppedKeys,
      ...(tally.items ? { items: tally.items } : {}),
      ...(tally.characters ? { characters: tally.characters } : {}),
    },
  };
}

interface Tally {
  items?: { shown: number; total: number };
  characters?: { shown: number; total: number };
  droppedKeys: number;
}

interface Fitted {
  readonly value: unknown;
  readonly bytes: number;
}

/** `value` (of `size` bytes) or a cut of it within `budget`; undefined when nothing fits. */
function fit(value: unknown, size: number, budget: number, tally: Tally): Fitted | undefined {
  if (size <= budget) return { value, bytes: size };
  if (typeof value === 'string') return cutString(value, budget, tally);
  if (Array.isArray(value)) return cutArray(value, budget, tally);
  if (value !== null && typeof value === 'object') {
    return cutObject(value as Record<string, unknown>, budget, tally);
  }
  return undefined;
}

function cutString(text: string, budget: number, tally: Tally): Fitted | undefined {
  const ellipsis = jsonStringBytes(ELLIPSIS) - 2;
  if (budget < 2 + ellipsis) return undefined;
  let bytes = 2 + ellipsis;
  let end = 0;
  let characters = 0;
  while (end < text.length) {
    const step = jsonCharBytes(text, end);
    if (bytes + step.bytes > budget) break;
    bytes += step.bytes;
    end += step.units;
    characters += 1;
  }
  const total = countCharacters(text);
  if (!tally.characters || total > tally.characters.total) {
    tally.characters = { shown: characters, total };
  }
  return { value: text.slice(0, end) + ELLIPSIS, bytes };
}

function cutArray(items: readonly unknown[], budget: number, tally: Tally): Fitted | undefined {
  if (budget < 2) return undefined;
  const kept: unknown[] = [];
  let bytes = 2;
  for (const item of items) {
    const separator = kept.length === 0 ? 0 : 1;
    const size = jsonBytes(item);
    if (bytes + separator + size <= budget) {
      kept.push(item);
      bytes += separator + size;
      continue;
    }
    // Only a first item too big to keep whole is cut: later ones end the list.
    const partial = kept.length === 0 ? fit(item, size, budget - bytes, tally) : undefined;
    if (partial) {
      kept.push(partial.value);
      bytes += partial.bytes;
    }
    break;
  }
  if (!tally.items || items.length > tally.items.total) {
    tally.items = { shown: kept.length, total: items.length };
  }
  return { value: kept, bytes };
}

/**
 * Keeps every property it can: the smallest first, each given an even share of what is left,
 * so small properties stay whole and the big ones share the rest (water-filling).
 */
function cutObject(
  object: Record<string, unknown>,
  budget: number,
  tally: Tally,
): Fitted | undefined {
  if (budget < 2) return undefined;
  const entries = Object.entries(object).map(([key, value], order) => {
    const keyBytes = jsonStringBytes(key) + 1;
    const size = jsonBytes(value);
    return { key, value, order, keyBytes, size };
  });
  const bySize = [...entries].sort((a, b) => a.keyBytes + a.size - (b.keyBytes + b.size));
  // Each kept property costs its bytes and a comma; the first one's comma pays for nothing.
  let left = budget - 2 + 1;
  const kept = new Map<number, Fitted>();
  bySize.forEach((entry, index) => {
    const share = Math.floor(left / (bySize.length - index));
    const room = share - entry.keyBytes - 1;
    const fitted = room < 0 ? undefined : fit(entry.value, entry.size, room, tally);
    if (fitted === undefined) {
      tally.droppedKeys += 1;
      return;
    }
    kept.set(entry.order, fitted);
    left -= entry.keyBytes + fitted.bytes + 1;
  });
  let bytes = 2 + Math.max(0, kept.size - 1);
  const pairs: [string, unknown][] = [];
  for (const entry of entries) {
    const fitted = kept.get(entry.order);
    if (fitted === undefined) continue;
    pairs.push([entry.key, fitted.value]);
    bytes += entry.keyBytes + fitted.bytes;
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return { value: Object.fromEntries(pairs), bytes };
}

function countCharacters(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += jsonCharBytes(text, index).units) count += 1;
  return count;
}

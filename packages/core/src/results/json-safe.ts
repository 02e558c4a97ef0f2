/** Hooks that let callers of {@link toJsonSafe} rewrite values on the way. */
export interface JsonSafeHooks {
  /** Rewrites every string (message text, url, ...). */
  readonly mapString?: (text: string) => string;
  /** Whether this key and its value are left out of the copy. */
  readonly omitsKey?: (key: string) => boolean;
  /** Whether the value under this key must be hidden entirely. */
  readonly hidesKey?: (key: string) => boolean;
  /** What a hidden value is replaced with. */
  readonly hiddenValue?: string;
}

const MAX_DEPTH = 32;

/**
 * A deep copy of `value` that `JSON.stringify` carries faithfully and that never throws:
 * cycles become `'[Circular]'`, very deep values `'[Truncated]'`, unreadable ones
 * `'[Unreadable]'`, BigInts and symbols strings, non-finite numbers strings, functions are
 * dropped, errors become `{ name, message }`, maps objects and sets arrays, and objects with a
 * `toJSON` (dates, URLs) their JSON form.
 */
export function toJsonSafe(value: unknown, hooks: JsonSafeHooks = {}): unknown {
  return copy(value, hooks, new Set(), 0);
}

function copy(
  value: unknown,
  hooks: JsonSafeHooks,
  ancestors: Set<object>,
  depth: number,
): unknown {
  switch (typeof value) {
    case 'string':
      return hooks.mapString ? hooks.mapString(value) : value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
    case 'symbol':
      return value.toString();
    case 'function':
    case 'undefined':
      return undefined;
    case 'boolean':
      return value;
    default:
      return value === null ? null : copyGuarded(value as object, hooks, ancestors, depth);
  }
}

function copyGuarded(
  value: object,
  hooks: JsonSafeHooks,
  ancestors: Set<object>,
  depth: number,
): unknown {
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  ancestors.add(value);
  try {
    return copyObject(value, hooks, ancestors, depth + 1);
  } catch {
    return '[Unreadable]';
  } finally {
    ancestors.delete(value);
  }
}

function copyObject(
  value: object,
  hooks: JsonSafeHooks,
  ancestors: Set<object>,
  depth: number,
): unknown {
  const next = (item: unknown) => copy(item, hooks, ancestors, depth);
  if (Array.isArray(value)) return value.map((item) => next(item) ?? null);
  if (value instanceof Error) return { name: next(value.name), message: next(value.message) };
  if (value instanceof Map)
    return copyEntries(
      [...value].map(([key, item]) => [String(key), item]),
      hooks,
      next,
    );
  if (value instanceof Set) return [...value].map((item) => next(item) ?? null);
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return next(toJSON.call(value));
  return copyEntries(
    Object.keys(value).map((key) => [key, readOwn(value, key)]),
    hooks,
    next,
  );
}

function copyEntries(
  entries: readonly (readonly [string, unknown])[],
  hooks: JsonSafeHooks,
  next: (item: unknown) => unknown,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    if (hooks.omitsKey?.(key)) continue;
    const copied =
      hooks.hidesKey?.(key) && item !== undefined && item !== null ? hooks.hiddenValue : next(item);
    if (copied === undefined) continue;
    // A plain assignment keeps the copy a fast object; only `__proto__` needs defining, so that
    // it stays data and never becomes the prototype.
    if (key === '__proto__')
      Object.defineProperty(result, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else result[key] = copied;
  }
  return result;
}

/** One property, or the `'[Unreadable]'` marker when its getter throws. */
function readOwn(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return '[Unreadable]';
  }
}

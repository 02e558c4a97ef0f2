/**
 * Response headers in any of the shapes HTTP clients hand out: a Fetch `Headers` (or anything
 * with a case-insensitive `get`), a `Map`, or a plain object with any key casing (Node,
 * axios), whose values may be strings, numbers or arrays.
 *
 * @publicApi
 */
export type HeadersLike =
  { get(name: string): unknown } | ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;

/**
 * The value of header `name` (lower case), whatever the shape and casing of `headers`; the
 * first one when it repeats. Never throws.
 *
 * @internal
 */
export function readHeader(headers: HeadersLike, name: string): unknown {
  try {
    const value =
      headers instanceof Map
        ? findCaseInsensitive(headers.entries(), name)
        : typeof headers['get'] === 'function'
          ? (headers as { get(name: string): unknown }).get(name)
          : findCaseInsensitive(Object.entries(headers), name);
    return Array.isArray(value) ? (value[0] as unknown) : value;
  } catch {
    return undefined;
  }
}

function findCaseInsensitive(entries: Iterable<[unknown, unknown]>, name: string): unknown {
  for (const [key, value] of entries) {
    if (typeof key === 'string' && key.toLowerCase() === name) return value;
  }
  return undefined;
}

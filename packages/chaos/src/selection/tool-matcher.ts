import picomatch from 'picomatch';

/**
 * Compiles tool names and globs into a predicate, the way a rule's `tools` select: no
 * patterns match every tool, an empty list none. Globs follow picomatch, with `dot: true` so
 * a leading dot is nothing special in a tool name. Use it to check that a rule's `tools` name
 * tools you have before you set it.
 *
 * @example
 * compileToolMatcher(['search*', 'get_weather'])('search_web'); // true
 *
 * @publicApi
 */
export function compileToolMatcher(
  patterns: string | readonly string[] | undefined,
): (toolName: string) => boolean {
  if (patterns === undefined) return () => true;
  const list = typeof patterns === 'string' ? [patterns] : [...patterns];
  if (list.length === 0) return () => false;
  return picomatch(list, { dot: true });
}

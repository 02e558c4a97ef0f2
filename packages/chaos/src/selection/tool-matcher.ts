import picomatch from 'picomatch';

/**
 * Compiles tool names and globs into a predicate; no patterns match every tool. Globs follow
 * picomatch, with `dot: true` so a leading dot is nothing special in a tool name.
 */
export function compileToolMatcher(
  patterns: string | readonly string[] | undefined,
): (toolName: string) => boolean {
  if (patterns === undefined) return () => true;
  const list = typeof patterns === 'string' ? [patterns] : [...patterns];
  if (list.length === 0) return () => false;
  return picomatch(list, { dot: true });
}

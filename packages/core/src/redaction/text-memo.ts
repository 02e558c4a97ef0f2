/** Texts a memo keeps at most. */
const MAX_ENTRIES = 512;
/** Longer texts are not kept: they are rarely repeated and would hold memory. */
const MAX_KEY_LENGTH = 2048;

/**
 * Remembers what a pure text function made of the texts it saw last, so a message repeated
 * on every failure of an outage (an open breaker's, a refused connection's) is redacted once.
 * Bounded: at most {@link MAX_ENTRIES} texts of up to {@link MAX_KEY_LENGTH} characters, the
 * oldest forgotten first. Worst case, every entry at the longest key: 512 × (2,048 + the
 * result's length) characters, about 1.6 MB (one-byte strings) for a failure sanitizer's
 * metadata memo (results cut to 1,000) and 1.1 MB for its sentence memo (cut to 200); it
 * reaches that size within 512 distinct texts and stays there however many calls follow.
 *
 * @internal
 */
export function memoizeText(fn: (text: string) => string): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    if (text.length > MAX_KEY_LENGTH) return fn(text);
    const known = seen.get(text);
    if (known !== undefined) return known;
    const made = fn(text);
    if (seen.size >= MAX_ENTRIES) seen.delete(seen.keys().next().value as string);
    seen.set(text, made);
    return made;
  };
}

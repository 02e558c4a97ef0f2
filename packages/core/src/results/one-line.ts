/**
 * The first non-blank line of `text`, whitespace collapsed, cut at `maxLength` characters
 * (with an ellipsis): how error messages are kept short and free of stacks.
 */
export function oneLine(text: string, maxLength: number): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '';
  const collapsed = line.replace(/\s+/g, ' ').trim();
  return collapsed.length > maxLength
    ? `${collapsed.slice(0, maxLength - 1).trimEnd()}…`
    : collapsed;
}

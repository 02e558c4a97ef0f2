import { isStackFrameLine } from './stack-frames.js';

/** How far back from the cut a word boundary is looked for, so a cut does not split a word. */
const WORD_BOUNDARY_REACH = 40;

/**
 * The first line of `text` that is neither blank nor a stack frame, whitespace collapsed, cut at
 * `maxLength` characters (at a word boundary when one is near, with an ellipsis): how error
 * messages are kept short and free of stacks.
 */
export function oneLine(text: string, maxLength: number): string {
  const line = firstMeaningfulLine(text);
  const collapsed = /\s\s|[^\S ]/.test(line) ? line.replace(/\s+/g, ' ').trim() : line.trim();
  return collapsed.length > maxLength ? cut(collapsed, maxLength) : collapsed;
}

function firstMeaningfulLine(text: string): string {
  if (!text.includes('\n')) return isStackFrameLine(text) ? '' : text;
  for (const line of text.split('\n')) {
    if (line.trim() !== '' && !isStackFrameLine(line)) return line;
  }
  return '';
}

function cut(text: string, maxLength: number): string {
  const head = text.slice(0, maxLength - 1);
  const space = head.lastIndexOf(' ');
  const kept = space >= maxLength - 1 - WORD_BOUNDARY_REACH ? head.slice(0, space) : head;
  return `${kept.trimEnd()}…`;
}

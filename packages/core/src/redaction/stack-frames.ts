/**
 * A line of a JavaScript stack trace: `    at fn (file.js:1:2)`, `    at file:///x.js:3:4`,
 * `    at async Promise.all (index 0)`, `    at new Foo (<anonymous>)`, and Node's
 * `    ... 4 lines matching cause stack trace ...`. Prose that starts with "at" stays.
 */
const FRAME_LINE =
  /^\s*(?:at\s.*(?::\d+:\d+\)?|\((?:native|<anonymous>|index \d+)\)|<anonymous>)|\.\.\. \d+ lines? matching cause stack trace \.\.\.)\s*$/;

/** Frames inside one line of text, JSON-escaped once or more (`\n    at fn (file.js:1:2)`). */
const ESCAPED_FRAMES = /(?:\\+r)?\\+n\s*at\s(?:(?!\\+[rn]|\\*["'])[^\r\n])*/g;

/** Whether `line` is a stack frame. @publicApi */
export function isStackFrameLine(line: string): boolean {
  return FRAME_LINE.test(line);
}

/**
 * `text` without stack frames: frame lines are dropped, and so are frames JSON-escaped inside
 * a line (a stack serialised into an error body). The message lines stay.
 *
 * @example
 * stripStackFrames('Error: boom\n    at run (/app/x.js:1:2)'); // 'Error: boom'
 *
 * @publicApi
 */
export function stripStackFrames(text: string): string {
  const unescaped = text.includes('\\') ? text.replace(ESCAPED_FRAMES, '') : text;
  if (!unescaped.includes('\n')) return unescaped;
  return unescaped
    .split(/\r?\n/)
    .filter((line) => !isStackFrameLine(line))
    .join('\n');
}

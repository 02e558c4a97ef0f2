/**
 * Where a JSON text first breaks, and why.
 *
 * @publicApi
 */
export interface JsonSyntaxProblem {
  /** UTF-16 offset of the first character that cannot be accepted (the length at end of input). */
  readonly offset: number;
  /** 1-based line of `offset`. */
  readonly line: number;
  /** 1-based column of `offset`. */
  readonly column: number;
  /** What was wrong there, lower case, no trailing period. */
  readonly reason: string;
}

type Expectation = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'separator';

interface Break {
  readonly offset: number;
  readonly reason: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Finds the first syntax error in a JSON text, engine-independently (V8's own messages do not
 * always carry a position). Iterative, so arbitrarily deep input cannot overflow the stack.
 * Returns `undefined` for valid JSON.
 *
 * @publicApi
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const found = scan(text);
  return found && { ...found, ...lineAndColumn(text, found.offset) };
}

function scan(text: string): Break | undefined {
  const closers: string[] = [];
  let expecting: Expectation = 'value';
  let i = 0;
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length) {
      return expecting === 'separator' && closers.length === 0
        ? undefined
        : { offset: i, reason: 'unexpected end of input' };
    }
    const ch = text[i] ?? '';
    const closer = closers.at(-1);
    let next: number | Break;
    switch (expecting) {
      case 'valueOrClose':
      case 'value':
        if (expecting === 'valueOrClose' && ch === ']') {
          closers.pop();
          next = i + 1;
          expecting = 'separator';
        } else if (ch === '{' || ch === '[') {
          closers.push(ch === '{' ? '}' : ']');
          next = i + 1;
          expecting = ch === '{' ? 'keyOrClose' : 'valueOrClose';
        } else {
          next = scanScalar(text, i);
          expecting = 'separator';
        }
        break;
      case 'keyOrClose':
      case 'key':
        if (expecting === 'keyOrClose' && ch === '}') {
          closers.pop();
          next = i + 1;
          expecting = 'separator';
        } else if (ch === '"') {
          next = scanString(text, i);
          expecting = 'colon';
        } else {
          next = { offset: i, reason: 'expected a double-quoted property name' };
        }
        break;
      case 'colon':
        next = ch === ':' ? i + 1 : { offset: i, reason: "expected ':' after a property name" };
        expecting = 'value';
        break;
      case 'separator':
        if (closer === undefined) {
          next = { offset: i, reason: 'unexpected text after the JSON value' };
        } else if (ch === ',') {
          next = i + 1;
          expecting = closer === '}' ? 'key' : 'value';
        } else if (ch === closer) {
          closers.pop();
          next = i + 1;
        } else {
          next = { offset: i, reason: `expected ',' or '${closer}'` };
        }
        break;
    }
    if (typeof next !== 'number') return next;
    i = next;
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  return i;
}

function scanScalar(text: string, start: number): number | Break {
  const ch = text[start] ?? '';
  if (ch === '"') return scanString(text, start);
  if (ch === '-' || (ch >= '0' && ch <= '9')) {
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(text);
    return match ? start + match[0].length : { offset: start, reason: 'invalid number' };
  }
  const literal = LITERALS[ch];
  if (literal !== undefined) {
    if (text.startsWith(literal, start)) return start + literal.length;
    if (literal.startsWith(text.slice(start))) {
      return { offset: text.length, reason: 'unexpected end of input' };
    }
  }
  return { offset: start, reason: `unexpected character ${JSON.stringify(ch)}` };
}

function scanString(text: string, start: number): number | Break {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '"') return i + 1;
    if (ch === '\\') {
      const escaped = text[i + 1];
      if (escaped === undefined) break;
      if (!ESCAPABLE.has(escaped)) return { offset: i, reason: 'invalid escape in string' };
      if (escaped === 'u' && !HEX4.test(text.slice(i + 2, i + 6))) {
        return i + 6 > text.length
          ? { offset: text.length, reason: 'unterminated string' }
          : { offset: i, reason: 'invalid unicode escape in string' };
      }
      i += escaped === 'u' ? 6 : 2;
    } else if (ch < ' ') {
      return { offset: i, reason: 'control character in string' };
    } else {
      i++;
    }
  }
  return { offset: text.length, reason: 'unterminated string' };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

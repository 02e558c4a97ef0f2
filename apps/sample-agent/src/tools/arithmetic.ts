/** The value of an expression, or why it has none. */
export type Evaluation =
  { readonly ok: true; readonly value: number } | { readonly ok: false; readonly error: string };

const TOKEN = /\s*(\d+(?:\.\d+)?|[-+*/()])/y;

function tokenize(expression: string): string[] | string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match) {
      if (expression.slice(at).trim() === '') break;
      return `unexpected "${expression.slice(at).trim()[0]}" at position ${at + 1}`;
    }
    tokens.push(match[1] as string);
  }
  return tokens;
}

/** Thrown inside the parser; turned into an `ok: false` evaluation. */
class ParseError extends Error {}

/**
 * Evaluates `+ - * /`, parentheses and unary minus over decimal numbers, by recursive
 * descent (no `eval`). Division by zero and anything unparsable come back as `ok: false`.
 */
export function evaluateArithmetic(expression: string): Evaluation {
  const tokens = tokenize(expression);
  if (typeof tokens === 'string') return { ok: false, error: tokens };
  let index = 0;
  const peek = () => tokens[index];
  const next = () => tokens[index++];

  const primary = (): number => {
    const token = next();
    if (token === undefined) throw new ParseError('the expression ends too early');
    if (token === '-') return -primary();
    if (token === '(') {
      const value = sum();
      if (next() !== ')') throw new ParseError('a closing parenthesis is missing');
      return value;
    }
    const value = Number(token);
    if (Number.isNaN(value)) throw new ParseError(`unexpected "${token}"`);
    return value;
  };
  const product = (): number => {
    let value = primary();
    while (peek() === '*' || peek() === '/') {
      const operator = next();
      const right = primary();
      if (operator === '/' && right === 0) throw new ParseError('division by zero');
      value = operator === '*' ? value * right : value / right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === '+' || peek() === '-') {
      value = next() === '+' ? value + product() : value - product();
    }
    return value;
  };

  try {
    const value = sum();
    if (index < tokens.length) throw new ParseError(`unexpected "${peek()}"`);
    return { ok: true, value: Math.round(value * 1e9) / 1e9 };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error: error.message };
    throw error;
  }
}

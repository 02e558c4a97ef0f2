/**
 * One problem with one option: where it is, what was given, what is allowed.
 *
 * @publicApi
 */
export interface OptionIssue {
  /** Where the option sits: `defaults.retry.maxRetries`, `@Tool(get_weather).timeoutMs`, `policyOrder[1]`. */
  readonly path: string;
  /** The value given, described for a message (`NaN`, `'100'`, `a function`). */
  readonly received: string;
  /** What is allowed, as a noun phrase (`an integer from 0 up`). */
  readonly expected: string;
}

/**
 * How one option is checked: a row of an options schema (see `objectOf`). Build rules with
 * the helpers of `option-rules.ts` rather than by hand.
 *
 * @publicApi
 */
export interface OptionRule {
  /** What is allowed, as a noun phrase for messages (`a number of milliseconds from 1 up`). */
  readonly expected: string;
  /**
   * Whether the value is of this rule's kind. For a leaf rule this is the whole check; for
   * an object or list rule only the outer shape, the parts being checked by `inner`.
   */
  readonly accepts: (value: unknown) => boolean;
  /** Checks the parts of an accepted value (the fields of an object, the items of a list). */
  readonly inner?: (value: never, path: string) => readonly OptionIssue[];
  /** The option must be given (most are optional: `undefined` means "use the default"). */
  readonly required?: boolean;
}

/** The issues of `value` against `rule`; empty when it is allowed. @publicApi */
export function checkOption(
  rule: OptionRule,
  value: unknown,
  path: string,
): readonly OptionIssue[] {
  if (!rule.accepts(value))
    return [{ path, received: describeOptionValue(value), expected: rule.expected }];
  return rule.inner?.(value as never, path) ?? [];
}

const MAX_SHOWN_STRING = 40;

/** A short, unambiguous description of a value for an option message. @publicApi */
export function describeOptionValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_SHOWN_STRING
        ? `'${value.slice(0, MAX_SHOWN_STRING)}…' (${value.length} characters)`
        : `'${value}'`;
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return String(value);
    default:
      return describeObject(value as object | null);
  }
}

function describeObject(value: object | null): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const name = prototype?.constructor?.name;
  return prototype === null || prototype === Object.prototype || !name
    ? 'an object'
    : withArticle(name);
}

/** `a Date`, `an AbortSignal`. @publicApi */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

import {
  checkOption,
  describeOptionValue,
  withArticle,
  type OptionIssue,
  type OptionRule,
} from './option-rule.js';

/**
 * A rule for every option of `T`, none missing: adding an option to an interface without a
 * rule for it fails to compile.
 *
 * @publicApi
 */
export type OptionRules<T> = { readonly [K in keyof T]-?: OptionRule };

/** `path.key`, or `key` at the root. @publicApi */
export function joinOptionPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** An integer in `[min, max]`. @publicApi */
export function integer(
  min = Number.NEGATIVE_INFINITY,
  max = Number.POSITIVE_INFINITY,
): OptionRule {
  return {
    expected:
      max !== Number.POSITIVE_INFINITY
        ? `an integer from ${min} to ${max}`
        : min === Number.NEGATIVE_INFINITY
          ? 'an integer'
          : `an integer from ${min} up`,
    accepts: (value) =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}

/** An integer from `min` up, or `Infinity` for no limit. @publicApi */
export function limit(min: number): OptionRule {
  const count = integer(min);
  return {
    expected: `${count.expected}, or Infinity for no limit`,
    accepts: (value) => value === Number.POSITIVE_INFINITY || count.accepts(value),
  };
}

/** How {@link milliseconds} bounds a duration. @publicApi */
export interface MillisecondsBounds {
  /** Zero is not allowed (a zero time limit would fail every call). */
  readonly positive?: boolean;
  /** `Infinity` is allowed and means "no limit". */
  readonly unlimited?: boolean;
}

/** A finite number of milliseconds, at least 0 (or above 0). @publicApi */
export function milliseconds(bounds: MillisecondsBounds = {}): OptionRule {
  const floor = bounds.positive ? 'above 0' : 'from 0 up';
  return {
    expected: `a number of milliseconds ${floor}${bounds.unlimited ? ', or Infinity for no limit' : ''}`,
    accepts: (value) =>
      typeof value === 'number' &&
      (Number.isFinite(value) ||
        (bounds.unlimited === true && value === Number.POSITIVE_INFINITY)) &&
      (bounds.positive ? value > 0 : value >= 0),
  };
}

/** A number in `[min, max]`, or `[min, max)` when `maxExcluded`. @publicApi */
export function numberIn(min: number, max: number, maxExcluded = false): OptionRule {
  return {
    expected: `a number from ${min} to ${maxExcluded ? 'below ' : ''}${max}`,
    accepts: (value) =>
      typeof value === 'number' && value >= min && (maxExcluded ? value < max : value <= max),
  };
}

/** Any finite number. @publicApi */
export function finiteNumber(): OptionRule {
  return { expected: 'a finite number', accepts: (value) => Number.isFinite(value) };
}

/** `true` or `false`. @publicApi */
export function bool(): OptionRule {
  return { expected: 'true or false', accepts: (value) => typeof value === 'boolean' };
}

/** A function. @publicApi */
export function func(): OptionRule {
  return { expected: 'a function', accepts: (value) => typeof value === 'function' };
}

/** A string; with `nonBlank`, one with something besides white space. @publicApi */
export function text(nonBlank = false): OptionRule {
  return {
    expected: nonBlank ? 'a non-blank string' : 'a string',
    accepts: (value) => typeof value === 'string' && (!nonBlank || value.trim() !== ''),
  };
}

/** One of a few exact values. @publicApi */
export function oneOf(values: readonly (string | number | boolean)[]): OptionRule {
  const shown = values.map(describeOptionValue);
  return {
    expected: shown.length === 1 ? `${shown[0]}` : `one of ${shown.join(', ')}`,
    accepts: (value) => values.includes(value as string | number | boolean),
  };
}

/** An instance of `type` (a `RegExp`, an `AbortSignal`, ...). @publicApi */
export function instanceOf(type: abstract new (...args: never[]) => unknown): OptionRule {
  return { expected: withArticle(type.name), accepts: (value) => value instanceof type };
}

/** A valid `Date`. @publicApi */
export function validDate(): OptionRule {
  return {
    expected: 'a valid Date',
    accepts: (value) => value instanceof Date && !Number.isNaN(value.getTime()),
  };
}

/** An object with these methods (its own or inherited): a clock, a store. @publicApi */
export function withMethods(what: string, methods: readonly string[]): OptionRule {
  return {
    expected: `${what} (an object with ${methods.map((name) => `${name}()`).join(' and ')})`,
    accepts: (value) =>
      isObject(value) &&
      methods.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
  };
}

/** Any object (its contents are not checked). @publicApi */
export function anyObject(what = 'an object'): OptionRule {
  return { expected: what, accepts: isObject };
}

/** How {@link listOf} restricts a list. @publicApi */
export interface ListBounds {
  /** No item may appear twice. */
  readonly unique?: boolean;
  /** Every one of these items must appear (with `unique`: the list is an ordering of them). */
  readonly complete?: readonly unknown[];
}

/** Any value (a fallback's output, checked as JSON where it is used). @publicApi */
export function anyValue(): OptionRule {
  return { expected: 'any value', accepts: () => true };
}

/** A list whose every item follows `item`. @publicApi */
export function listOf(item: OptionRule, bounds: ListBounds = {}): OptionRule {
  const complete = bounds.complete?.map(describeOptionValue).join(', ');
  return {
    expected: complete
      ? `a list of ${complete}, each exactly once`
      : `a list of ${item.expected}${bounds.unique ? ', each at most once' : ''}`,
    accepts: Array.isArray,
    inner: (list: readonly unknown[], path) => listIssues(list, path, item, bounds),
  };
}

function listIssues(
  list: readonly unknown[],
  path: string,
  item: OptionRule,
  bounds: ListBounds,
): readonly OptionIssue[] {
  const issues = list.flatMap((value, index) => checkOption(item, value, `${path}[${index}]`));
  if (issues.length > 0) return issues;
  if (bounds.unique || bounds.complete) {
    list.forEach((value, index) => {
      if (list.indexOf(value) !== index) {
        issues.push({
          path: `${path}[${index}]`,
          received: describeOptionValue(value),
          expected: 'an item not already in the list',
        });
      }
    });
  }
  const missing = bounds.complete?.filter((value) => !list.includes(value)) ?? [];
  if (issues.length === 0 && missing.length > 0) {
    issues.push({
      path,
      received: `a list without ${missing.map(describeOptionValue).join(', ')}`,
      expected: listOf(item, bounds).expected,
    });
  }
  return issues;
}

/** The first rule that accepts the value decides; the message names them all. @publicApi */
export function either(...rules: readonly OptionRule[]): OptionRule {
  return {
    expected: rules.map((rule) => rule.expected).join(', or '),
    accepts: (value) => rules.some((rule) => rule.accepts(value)),
    inner: (value: unknown, path) => {
      const chosen = rules.find((rule) => rule.accepts(value));
      return chosen ? checkOption(chosen, value, path) : [];
    },
  };
}

/** The option must be given. @publicApi */
export function required(rule: OptionRule): OptionRule {
  return { ...rule, required: true };
}

/**
 * An options object: every known option is checked by its rule (an absent optional one is
 * skipped), and any other key is refused, so a misspelt option is never silently ignored.
 *
 * @example
 * const backoffOptions = objectOf<BackoffOptions>({
 *   baseMs: milliseconds(), capMs: milliseconds(), jitter: oneOf(['full', 'decorrelated', 'none']), random: func(),
 * });
 * @publicApi
 */
export function objectOf<T>(rules: OptionRules<T>, what = 'an object'): ObjectOptionRule<T> {
  const table = rules as Readonly<Record<string, OptionRule>>;
  const entries = Object.entries(table);
  const known = Object.keys(table);
  const unknown = `absent: it is not an option (the options here are ${known.join(', ')})`;
  return {
    expected: what,
    rules,
    accepts: isObject,
    // Loops rather than array helpers: per-call options are checked on every call.
    inner: (options: Readonly<Record<string, unknown>>, path) => {
      const issues: OptionIssue[] = [];
      for (const key of Object.keys(options)) {
        if (Object.hasOwn(table, key)) continue;
        const received = describeOptionValue(options[key]);
        issues.push({ path: joinOptionPath(path, key), received, expected: unknown });
      }
      for (const [key, rule] of entries) {
        const value = options[key];
        if (value === undefined && !rule.required) continue;
        if (rule.accepts(value) && rule.inner === undefined) continue;
        issues.push(...checkOption(rule, value, joinOptionPath(path, key)));
      }
      return issues;
    },
  };
}

/** The rule {@link objectOf} builds: its table of rules stays readable. @publicApi */
export type ObjectOptionRule<T> = OptionRule & { readonly rules: OptionRules<T> };

/**
 * What one option needs of the others in its object: `hedging` only for a tool that is
 * idempotent and read-only, say. @publicApi
 */
export interface OptionCondition<T> {
  /** The option that needs the condition; the condition is checked only when it is given. */
  readonly option: keyof T & string;
  /** Whether the options allow it (called once the option passed its own rule). */
  readonly holds: (options: T) => boolean;
  /** What must hold, for the message: `... must be absent unless <condition>, got ...`. */
  readonly condition: string;
}

/**
 * An options object some of whose options depend on others: the object is checked by its
 * own rules first, then each condition whose option is given and valid, reported at that
 * option so the message names what to change.
 *
 * @example
 * const TOOL_RULE = withConditions(objectOf<ToolOptions>({ ... }), [{
 *   option: 'hedging',
 *   holds: (tool) => tool.idempotent === true,
 *   condition: 'the tool is idempotent (idempotent: true)',
 * }]);
 * // @Tool(save).hedging must be absent unless the tool is idempotent (idempotent: true), got an object.
 * @publicApi
 */
export function withConditions<T>(
  rule: ObjectOptionRule<T>,
  conditions: readonly OptionCondition<T>[],
): ObjectOptionRule<T> {
  return {
    ...rule,
    inner: (options: T & Readonly<Record<string, unknown>>, path) => {
      const issues = rule.inner?.(options as never, path) ?? [];
      const table = rule.rules as Readonly<Record<string, OptionRule>>;
      const unmet = conditions.filter(({ option, holds }) => {
        const value = options[option];
        if (value === undefined || !Object.hasOwn(table, option)) return false;
        const valid = checkOption(table[option] as OptionRule, value, option).length === 0;
        return valid && !holds(options);
      });
      return [
        ...issues,
        ...unmet.map(({ option, condition }) => ({
          path: joinOptionPath(path, option),
          received: describeOptionValue(options[option]),
          expected: `absent unless ${condition}`,
        })),
      ];
    },
  };
}

/** An object of any keys whose every value follows `value`. @publicApi */
export function recordOf(value: OptionRule): OptionRule {
  return {
    expected: `an object whose values are each ${value.expected}`,
    accepts: isObject,
    inner: (record: Readonly<Record<string, unknown>>, path) =>
      Object.keys(record).flatMap((key) =>
        checkOption(value, record[key], joinOptionPath(path, key)),
      ),
  };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

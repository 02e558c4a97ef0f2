import type { OptionRule } from '../options/option-rule.js';
import { integer } from '../options/option-rules.js';

/**
 * The smallest argument limit that still accepts `{}` (2 bytes), the empty arguments.
 *
 * @publicApi
 */
export const MIN_MAX_ARGUMENT_BYTES = 2;

/**
 * How a limit on argument bytes (`maxArgumentBytes`, `ParseToolArgumentsOptions.maxBytes`) is
 * checked: a whole number of bytes, at least enough for `{}`.
 *
 * @publicApi
 */
export const MAX_ARGUMENT_BYTES_RULE: OptionRule = integer(MIN_MAX_ARGUMENT_BYTES);

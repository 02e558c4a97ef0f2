import { InvalidOptionsError } from './invalid-options.error.js';
import { checkOption, type OptionRule } from './option-rule.js';

/**
 * Throws an {@link InvalidOptionsError} listing every problem of `value` under `rule`;
 * returns `value` unchanged when it is allowed. `path` prefixes every option's name in the
 * message (`@Tool(get_weather)` gives `@Tool(get_weather).timeoutMs`).
 *
 * @example
 * assertOptions(RETRY_OPTIONS_RULE, { maxRetries: NaN }, 'RetryOptions');
 * // InvalidOptionsError: Invalid RetryOptions: maxRetries must be an integer from 0 up, got NaN.
 * @publicApi
 */
export function assertOptions<T>(rule: OptionRule, value: T, subject: string, path = ''): T {
  const issues = checkOption(rule, value, path);
  if (issues.length > 0) throw new InvalidOptionsError(subject, issues);
  return value;
}

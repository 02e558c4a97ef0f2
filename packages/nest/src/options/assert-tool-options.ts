import { type RetryOptions, InvalidOptionsError } from '@toolshield/core';
import { RETRY_OPTIONS_RULE, assertOptions, describeOptionValue } from '@toolshield/core/internal';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import { TOOL_OPTIONS_RULE } from './tool-options.rule.js';

/**
 * Refuses a tool's `@Tool()` and `@Retryable()` options with an `InvalidOptionsError` naming
 * the tool, and `@Retryable()` on a tool not declared `idempotent: true` (whether a tool is safe
 * to repeat is declared by `idempotent` alone; `@Retryable()` says how it is retried): `Invalid tool options: @Tool(get_weather).timeoutMs must be false, or a number of
 * milliseconds above 0, got Infinity.` Tools found at bootstrap are checked with it; call it
 * for tools registered any other way.
 *
 * @param fallbackName names the tool in messages when `options.name` is not a usable string
 *   (the method's name, for `@Tool()` methods)
 * @publicApi
 */
export function assertToolOptions(
  options: ToolOptions,
  retryable?: RetryOptions,
  fallbackName = 'unnamed',
): void {
  const name = options?.name;
  const tool = typeof name === 'string' && name.trim() !== '' ? name : fallbackName;
  assertOptions(TOOL_OPTIONS_RULE, options, 'tool options', `@Tool(${tool})`);
  if (retryable === undefined) return;
  assertOptions(RETRY_OPTIONS_RULE, retryable, 'tool options', `@Retryable(${tool})`);
  if (options.idempotent !== true) {
    throw new InvalidOptionsError('tool options', [
      {
        path: `@Retryable(${tool})`,
        expected:
          'on a tool declared idempotent (a retried call runs more than once: add idempotent: true to its @Tool() options, or remove @Retryable())',
        received: describeOptionValue(retryable),
      },
    ]);
  }
}

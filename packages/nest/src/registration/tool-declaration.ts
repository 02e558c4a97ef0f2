import type { RetryOptions } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import { assertToolOptions } from '../options/assert-tool-options.js';
import { INVALID_TOOL_NAME, MISSING_TOOL_DESCRIPTION } from '../toolshield.messages.js';

const PORTABLE_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The checks every tool passes before it is registered, whichever way it was declared
 * (`@Tool()` or `ToolRegistrar.register`): a portable name, a description, and options and
 * retry options the option rules accept.
 *
 * @param source where the tool was declared, for the message (`Class.method`).
 * @throws Error saying what is wrong and how to fix it.
 * @internal
 */
export function assertToolDeclaration(
  name: string,
  options: ToolOptions,
  source: string,
  retryable?: RetryOptions,
): void {
  if (!PORTABLE_TOOL_NAME.test(name)) throw new Error(INVALID_TOOL_NAME(name, source));
  if (!options.description?.trim()) throw new Error(MISSING_TOOL_DESCRIPTION(name, source));
  assertToolOptions({ ...options, name }, retryable, name);
}

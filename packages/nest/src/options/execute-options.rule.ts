import { InvalidInputError, InvalidOptionsError } from '@toolshield/core';
import {
  RETRY_OPTIONS_RULE,
  anyObject,
  checkOption,
  either,
  formatOptionIssue,
  instanceOf,
  milliseconds,
  objectOf,
  oneOf,
  text,
} from '@toolshield/core/internal';
import type { ApprovedCall } from '../approvals/tool-approval-options.interface.js';
import type { ExecuteOptions } from '../execution/execute-options.interface.js';
import { TIMEOUT_MS_RULE } from './policy-option.rules.js';

/** How the per-call options of `ToolExecutor.execute()` are checked. @internal */
export const EXECUTE_OPTIONS_RULE = objectOf<ExecuteOptions>({
  signal: instanceOf(AbortSignal),
  metadata: anyObject(),
  timeoutMs: TIMEOUT_MS_RULE,
  retry: either(oneOf([false]), RETRY_OPTIONS_RULE),
  rateLimitMaxWaitMs: milliseconds(),
  conversationId: text(true),
  idempotencyKey: text(true),
  approved: objectOf<ApprovedCall>({ by: text(), reason: text() }),
});

/**
 * Refuses bad per-call options with an `InvalidInputError` (so the call ends
 * `invalid_input`, naming the option), since `execute()` never throws.
 *
 * @internal
 */
export function assertExecuteOptions(options: unknown): void {
  if (isEmptyObject(options)) return; // most calls: nothing to check, nothing to allocate
  const issues = checkOption(EXECUTE_OPTIONS_RULE, options, '');
  if (issues.length === 0) return;
  const cause = new InvalidOptionsError('ToolExecutor.execute() options', issues);
  throw new InvalidInputError(cause.message, {
    cause,
    issues: issues.map((issue) => ({
      path: issue.path,
      message: formatOptionIssue(issue),
      constraint: 'option',
    })),
  });
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

import type { ToolCallContext } from '@toolshield/core';
import type { ToolBreakerPolicy, ToolPolicies } from './tool-policies.interface.js';

/** The key of the breaker a call goes through: its name (the tool's by default), `name:key` when keyed. @internal */
export function breakerKeyOf(
  policy: ToolBreakerPolicy,
  call: ToolCallContext,
  args: unknown,
): string {
  const name = policy.name ?? call.toolName;
  return policy.key ? `${name}:${policy.key(call, args)}` : name;
}

/**
 * The upstream whose retry budget a call spends: the `retryBudget.key` it names, else its
 * breaker when the tool names or keys one, else the rate limit it names, else the tool.
 *
 * @internal
 */
export function retryBudgetKeyOf(
  policies: ToolPolicies,
  call: ToolCallContext,
  args: unknown,
): string {
  const named = policies.retry?.retryBudget?.key;
  if (named !== undefined) return named;
  const breaker = policies.breaker;
  if (breaker !== undefined && (breaker.name !== undefined || breaker.key !== undefined))
    return breakerKeyOf(breaker, call, args);
  return policies.rateLimit?.key ?? call.toolName;
}

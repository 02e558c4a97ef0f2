import { type RetryOptions } from '@toolshield/core';
import {
  Bulkhead,
  DEFAULT_TOOL_TIMEOUT_MS,
  resolveRetryPolicy,
  type RetryPolicy,
} from '@toolshield/core/internal';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import { resolveOutputBudget } from '../results/result-policies.js';
import type { ToolPolicyDefaults } from '../interfaces/tool-policy-defaults.interface.js';
import type {
  CallPolicyOverrides,
  ToolBreakerPolicy,
  ToolHedgingPolicy,
  ToolPolicies,
  ToolRateLimitPolicy,
} from './tool-policies.interface.js';

/** Resolves a tool's policies. @internal */
export function resolveToolPolicies(
  name: string,
  tool: ToolOptions,
  retryable: RetryOptions | undefined,
  defaults: ToolPolicyDefaults = {},
  random?: () => number,
): ToolPolicies {
  const retry = isIdempotent(tool)
    ? resolveRetryPolicy({
        ...defaults.retry,
        ...retryable,
        backoff: { random, ...defaults.retry?.backoff, ...retryable?.backoff },
      })
    : undefined;
  const bulkhead = tool.bulkhead ?? defaults.bulkhead;
  return {
    retry,
    breaker: resolveBreaker(tool, defaults),
    timeoutMs: resolveTimeout(tool.timeoutMs, defaults.timeoutMs),
    bulkhead: bulkhead && new Bulkhead({ ...bulkhead, toolName: name }),
    rateLimit: resolveRateLimit(name, tool, defaults),
    hedging: resolveHedging(tool, defaults),
    output: resolveOutputBudget(tool, defaults.output),
    cache: tool.cache,
  };
}

/** Whether a tool may run twice for one call (retries, hedges): it says `idempotent: true`. @internal */
export function isIdempotent(tool: ToolOptions): boolean {
  return tool.idempotent === true;
}

/** Whether a tool may be hedged: idempotent and read-only, since both attempts may run. @internal */
export function isHedgeable(tool: ToolOptions): boolean {
  return isIdempotent(tool) && tool.annotations?.readOnlyHint === true;
}

/** The tool's hedging, else the module's default for the tools that may be hedged. */
function resolveHedging(
  tool: ToolOptions,
  defaults: ToolPolicyDefaults,
): ToolHedgingPolicy | undefined {
  const options = tool.hedging ?? defaults.hedging;
  return options && isHedgeable(tool) ? { options } : undefined;
}

/**
 * The policies of one call: the tool's, with the caller's overrides. Overrides adjust the
 * tool's retry policy or switch it off; they cannot make a non-retried tool retry (whether a
 * tool may run twice is the tool author's call).
 *
 * @internal
 */
export function applyCallOverrides(
  policies: ToolPolicies,
  overrides: CallPolicyOverrides,
): ToolPolicies {
  if (
    overrides.timeoutMs === undefined &&
    overrides.retry === undefined &&
    overrides.rateLimitMaxWaitMs === undefined
  )
    return policies;
  const timeoutMs =
    overrides.timeoutMs === undefined
      ? policies.timeoutMs
      : resolveTimeout(overrides.timeoutMs, undefined);
  const retry =
    overrides.retry === false || policies.retry === undefined
      ? undefined
      : overrides.retry === undefined
        ? policies.retry
        : resolveRetryPolicy({ ...policyAsOptions(policies.retry), ...overrides.retry });
  return { ...policies, timeoutMs, retry, rateLimitMaxWaitMs: overrides.rateLimitMaxWaitMs };
}

function resolveRateLimit(
  name: string,
  tool: ToolOptions,
  defaults: ToolPolicyDefaults,
): ToolRateLimitPolicy | undefined {
  if (tool.rateLimit === false) return undefined;
  if (tool.rateLimit === undefined && defaults.rateLimit === undefined) return undefined;
  const { key = name, ...options } = tool.rateLimit ?? {};
  return { key, options: { ...defaults.rateLimit, ...options } };
}

function resolveBreaker(
  tool: ToolOptions,
  defaults: ToolPolicyDefaults,
): ToolBreakerPolicy | undefined {
  if (tool.breaker === false) return undefined;
  if (defaults.breaker === false && tool.breaker === undefined) return undefined;
  const { key, name, ...options } = tool.breaker ?? {};
  return { options: { ...(defaults.breaker || {}), ...options }, key, name };
}

function resolveTimeout(
  timeoutMs: number | false | undefined,
  fallback: number | false | undefined,
): number | undefined {
  const chosen = timeoutMs ?? fallback ?? DEFAULT_TOOL_TIMEOUT_MS;
  return chosen === false || !Number.isFinite(chosen) ? undefined : Math.max(0, chosen);
}

function policyAsOptions(policy: RetryPolicy): RetryOptions {
  return {
    maxRetries: policy.maxRetries,
    backoff: policy.backoff,
    retryOn: policy.isRetryable,
    retryOnResult: policy.retryOnResult,
    maxRetryAfterMs: policy.maxRetryAfterMs,
    budgetMs: policy.budgetMs,
    onRetry: policy.onRetry,
    retryBudget: policy.retryBudget ?? false,
  };
}

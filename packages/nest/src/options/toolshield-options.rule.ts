import { type RedactionRule } from '@toolshield/core';
import {
  CLOCK_RULE,
  LEDGER_STORE_RULE,
  MAX_ARGUMENT_BYTES_RULE,
  RATE_LIMIT_OPTIONS_RULE,
  TOOL_BATCH_DEFAULTS_RULE,
  bool,
  either,
  required,
  text,
  func,
  instanceOf,
  listOf,
  milliseconds,
  objectOf,
  oneOf,
  recordOf,
  withMethods,
} from '@toolshield/core/internal';
import type { ToolApprovalsOptions } from '../approvals/tool-approval-options.interface.js';
import type { ToolShieldAgentOptions } from '../agent/toolshield-agent-options.interface.js';
import type { ToolPolicyName } from '../interfaces/tool-policy-defaults.interface.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { RESULT_MODULE_OPTION_RULES } from '../results/result-option.rules.js';
import { TOOL_POLICY_DEFAULTS_RULE } from './policy-option.rules.js';

/** Every policy, each of which `policyOrder` must place exactly once. */
const POLICY_NAMES: readonly ToolPolicyName[] = ['retry', 'breaker', 'timeout', 'bulkhead'];
/** `rateLimit` may be placed too; left out, it goes right inside `retry`. */
const ORDERABLE: readonly ToolPolicyName[] = [...POLICY_NAMES, 'rateLimit'];

/**
 * How the options of `ToolShieldModule.forRoot()` / `forRootAsync()` are checked (with the
 * `isGlobal` extra of `forRoot()`).
 *
 * @internal
 */
export const TOOLSHIELD_OPTIONS_RULE = objectOf<ToolShieldModuleOptions & { isGlobal?: boolean }>({
  clock: CLOCK_RULE,
  random: func(),
  defaults: TOOL_POLICY_DEFAULTS_RULE,
  // A policy left out would silently drop it (the timeout layer also carries cancellation),
  // and one named twice would run twice: the order must name each policy exactly once.
  policyOrder: listOf(oneOf(ORDERABLE), { unique: true, complete: POLICY_NAMES }),
  breakerStore: withMethods('a CircuitBreakerStore', ['get', 'set']),
  rateLimitStore: withMethods('a RateLimitStore', ['limiter']),
  retryBudgetStore: withMethods('a RetryBudgetStore', ['recordCall', 'recordSuccess', 'tryRetry']),
  ...RESULT_MODULE_OPTION_RULES,
  classificationRules: listOf(func()),
  redactPatterns: listOf(
    either(
      instanceOf(RegExp),
      objectOf<RedactionRule>({
        pattern: required(instanceOf(RegExp)),
        replacement: either(text(), func()),
        hints: listOf(text(true)),
      }),
    ),
  ),
  maxArgumentBytes: MAX_ARGUMENT_BYTES_RULE,
  idempotencyKey: func(),
  rateLimits: recordOf(RATE_LIMIT_OPTIONS_RULE),
  agent: objectOf<ToolShieldAgentOptions>({
    batch: TOOL_BATCH_DEFAULTS_RULE,
    ledgerStore: LEDGER_STORE_RULE,
  }),
  approvals: objectOf<ToolApprovalsOptions>({
    store: withMethods('an ApprovalStore', ['create', 'get', 'list', 'decide']),
    ttlMs: milliseconds(),
  }),
  isGlobal: bool(),
});

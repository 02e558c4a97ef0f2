import {
  BULKHEAD_OPTION_RULES,
  CIRCUIT_BREAKER_OPTIONS_RULE,
  HEDGING_OPTIONS_RULE,
  RATE_LIMIT_OPTIONS_RULE,
  RETRY_OPTIONS_RULE,
  either,
  milliseconds,
  objectOf,
  oneOf,
} from '@toolshield/core/internal';
import { OUTPUT_OPTION_RULE } from '../results/result-option.rules.js';
import type { ToolBulkheadOptions } from '../interfaces/tool-options.interface.js';
import type { ToolPolicyDefaults } from '../interfaces/tool-policy-defaults.interface.js';

/** A per-attempt time limit: milliseconds above 0, or `false` for none. @internal */
export const TIMEOUT_MS_RULE = either(oneOf([false]), milliseconds({ positive: true }));

/** A tool's concurrency limit (the tool's name is filled in by toolshield). @internal */
export const TOOL_BULKHEAD_OPTIONS_RULE = objectOf<ToolBulkheadOptions>({
  maxConcurrent: BULKHEAD_OPTION_RULES.maxConcurrent,
  maxQueue: BULKHEAD_OPTION_RULES.maxQueue,
});

/** How `defaults` of `ToolShieldModule.forRoot()` are checked. @internal */
export const TOOL_POLICY_DEFAULTS_RULE = objectOf<ToolPolicyDefaults>({
  retry: RETRY_OPTIONS_RULE,
  timeoutMs: TIMEOUT_MS_RULE,
  breaker: either(oneOf([false]), CIRCUIT_BREAKER_OPTIONS_RULE),
  bulkhead: TOOL_BULKHEAD_OPTIONS_RULE,
  rateLimit: RATE_LIMIT_OPTIONS_RULE,
  hedging: HEDGING_OPTIONS_RULE,
  output: OUTPUT_OPTION_RULE,
});

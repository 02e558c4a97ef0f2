import { type ToolAnnotations } from '@toolshield/core';
import {
  TOOL_ERROR_TYPES,
  CIRCUIT_BREAKER_OPTION_RULES,
  HEDGING_OPTIONS_RULE,
  RATE_LIMIT_OPTION_RULES,
  anyValue,
  listOf,
  required,
  bool,
  either,
  func,
  objectOf,
  oneOf,
  text,
  withConditions,
  type OptionRule,
} from '@toolshield/core/internal';
import type {
  ToolBreakerOptions,
  ToolFallbackOptions,
  ToolOptions,
  ToolRateLimitOptions,
} from '../interfaces/tool-options.interface.js';
import { isHedgeable } from '../policies/tool-policies.js';
import {
  CACHE_CONDITION,
  CACHE_OPTION_RULE,
  OUTPUT_OPTION_RULE,
} from '../results/result-option.rules.js';
import { TIMEOUT_MS_RULE, TOOL_BULKHEAD_OPTIONS_RULE } from './policy-option.rules.js';

/** A JSON Schema for an arguments object: its `type` must be `'object'`. */
const INPUT_SCHEMA_RULE: OptionRule = {
  expected: "a JSON Schema object whose type is 'object'",
  accepts: (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { readonly type?: unknown }).type === 'object',
};

/**
 * MCP's `idempotentHint` is not a second way to declare a tool safe to repeat: it is published
 * from `idempotent`, so a tool that gives it is refused.
 */
const PUBLISHED_FROM_IDEMPOTENT: OptionRule = {
  expected:
    "left out (MCP's idempotentHint is published from idempotent: declare idempotent: true instead)",
  accepts: (value) => value === undefined,
};

/**
 * How `@Tool()` options are checked. The name's portability and the description's presence
 * have their own, more specific startup messages.
 *
 * @internal
 */
export const TOOL_OPTIONS_RULE = withConditions(
  objectOf<ToolOptions>({
    name: text(true),
    description: text(),
    inputSchema: INPUT_SCHEMA_RULE,
    annotations: objectOf<ToolAnnotations>({
      title: text(),
      readOnlyHint: bool(),
      destructiveHint: bool(),
      idempotentHint: PUBLISHED_FROM_IDEMPOTENT,
      openWorldHint: bool(),
    }),
    idempotent: bool(),
    timeoutMs: TIMEOUT_MS_RULE,
    breaker: either(
      oneOf([false]),
      objectOf<ToolBreakerOptions>({
        ...CIRCUIT_BREAKER_OPTION_RULES,
        key: func(),
        name: text(true),
      }),
    ),
    bulkhead: TOOL_BULKHEAD_OPTIONS_RULE,
    rateLimit: either(
      oneOf([false]),
      objectOf<ToolRateLimitOptions>({ ...RATE_LIMIT_OPTION_RULES, key: text(true) }),
    ),
    fallback: objectOf<ToolFallbackOptions>({
      on: required(listOf(oneOf(TOOL_ERROR_TYPES), { unique: true })),
      value: anyValue(),
      tool: text(true),
      args: func(),
    }),
    hedging: either(oneOf([false]), HEDGING_OPTIONS_RULE),
    critical: bool(),
    needsApproval: either(bool(), func()),
    output: OUTPUT_OPTION_RULE,
    cache: CACHE_OPTION_RULE,
  }),
  [
    {
      option: 'hedging',
      holds: (tool) => tool.hedging === false || isHedgeable(tool),
      condition:
        'the tool is idempotent and read-only (idempotent: true and annotations.readOnlyHint: true), since both attempts of a hedged call may reach the upstream',
    },
    { option: 'cache', holds: isHedgeable, condition: CACHE_CONDITION },
  ],
);

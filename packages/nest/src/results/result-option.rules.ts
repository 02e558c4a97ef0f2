import type { OutputBudget } from '@toolshield/core';
import {
  bool,
  either,
  func,
  integer,
  milliseconds,
  objectOf,
  oneOf,
  required,
  withMethods,
  type OptionRule,
} from '@toolshield/core/internal';
import type {
  ReadMoreToolOptions,
  ToolCacheSettings,
  ToolResultModuleOptions,
} from './tool-result-options.interface.js';

/** An output budget, or `false` for none (`@Tool({ output })`, `defaults.output`). @internal */
export const OUTPUT_OPTION_RULE: OptionRule = either(
  oneOf([false]),
  objectOf<OutputBudget>({ maxTokens: integer(256), maxBytes: integer(1_024) }),
);

/** `@Tool({ cache })`. @internal */
export const CACHE_OPTION_RULE: OptionRule = objectOf<ToolCacheSettings>({
  ttlMs: required(milliseconds({ positive: true })),
  staleIfErrorMs: milliseconds(),
  scope: func(),
});

/** When `cache` is allowed on a tool: it must be idempotent and read-only. @internal */
export const CACHE_CONDITION =
  'the tool is idempotent and read-only (idempotent: true and annotations.readOnlyHint: true), since a cached answer stands in for a call that did not run';

/** The module's result options (`forRoot`). @internal */
export const RESULT_MODULE_OPTION_RULES = {
  cacheStore: withMethods('a ToolCacheStore', ['get', 'set']),
  estimateTokens: func(),
  readMoreTool: either(
    bool(),
    objectOf<ReadMoreToolOptions>({
      keepMs: milliseconds({ positive: true }),
      maxEntries: integer(1),
    }),
  ),
} satisfies Partial<Record<keyof ToolResultModuleOptions, OptionRule>>;

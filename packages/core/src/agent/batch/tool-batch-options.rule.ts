import type { ToolBatchOptions } from './tool-batch-options.js';
import type { OptionRules } from '../../options/option-rules.js';
import {
  func,
  instanceOf,
  integer,
  listOf,
  objectOf,
  oneOf,
  text,
} from '../../options/option-rules.js';

/** The rules of each {@link ToolBatchOptions} field, for option groups that reuse some. @publicApi */
export const TOOL_BATCH_OPTION_RULES: OptionRules<ToolBatchOptions> = {
  strategy: oneOf(['sequential', 'parallel']),
  concurrency: integer(1),
  isConcurrencySafe: func(),
  terminatingTools: listOf(text(true)),
  signal: instanceOf(AbortSignal),
  onEntry: func(),
};

/** How {@link ToolBatchOptions} are checked. @publicApi */
export const TOOL_BATCH_OPTIONS_RULE = objectOf<ToolBatchOptions>(TOOL_BATCH_OPTION_RULES);

/** Batch settings without the per-run `signal` and `onEntry` (runner and module defaults). @publicApi */
export const TOOL_BATCH_DEFAULTS_RULE = objectOf<Omit<ToolBatchOptions, 'signal' | 'onEntry'>>({
  strategy: TOOL_BATCH_OPTION_RULES.strategy,
  concurrency: TOOL_BATCH_OPTION_RULES.concurrency,
  isConcurrencySafe: TOOL_BATCH_OPTION_RULES.isConcurrencySafe,
  terminatingTools: TOOL_BATCH_OPTION_RULES.terminatingTools,
});

import type { BulkheadOptions } from './bulkhead-options.js';
import type { OptionRules } from '../options/option-rules.js';
import { integer, objectOf, required, text } from '../options/option-rules.js';

/** The rules of each {@link BulkheadOptions} field, for option groups that reuse them. @publicApi */
export const BULKHEAD_OPTION_RULES: OptionRules<BulkheadOptions> = {
  maxConcurrent: required(integer(1)),
  maxQueue: integer(0),
  toolName: text(),
};

/** How {@link BulkheadOptions} are checked. @publicApi */
export const BULKHEAD_OPTIONS_RULE = objectOf<BulkheadOptions>(BULKHEAD_OPTION_RULES);

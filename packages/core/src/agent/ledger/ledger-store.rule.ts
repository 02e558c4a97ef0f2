import type { OptionRule } from '../../options/option-rule.js';
import { withMethods } from '../../options/option-rules.js';

/** A `ToolCallLedgerStore`: `load()` and `save()`. @publicApi */
export const LEDGER_STORE_RULE: OptionRule = withMethods('a ToolCallLedgerStore', ['load', 'save']);

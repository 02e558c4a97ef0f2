import { withMethods } from '../../options/option-rules.js';

/** A `ToolCallLedgerStore`: `load()` and `save()`. @publicApi */
export const LEDGER_STORE_RULE = withMethods('a ToolCallLedgerStore', ['load', 'save']);

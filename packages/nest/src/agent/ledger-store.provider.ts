import type { Provider } from '@nestjs/common';
import { InMemoryToolCallLedgerStore, ToolCallLedgerStore } from '@toolshield/core/agent';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_MODULE_OPTIONS } from '../toolshield.module-definition.js';

/** The module's `agent.ledgerStore` under the `ToolCallLedgerStore` token, in memory by default. */
export const ledgerStoreProvider: Provider = {
  provide: ToolCallLedgerStore,
  useFactory: (options: ToolShieldModuleOptions) =>
    options.agent?.ledgerStore ?? new InMemoryToolCallLedgerStore(),
  inject: [TOOLSHIELD_MODULE_OPTIONS],
};

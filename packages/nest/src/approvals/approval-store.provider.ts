import type { Provider } from '@nestjs/common';
import { ApprovalStore, InMemoryApprovalStore } from '@toolshield/core/approvals';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_MODULE_OPTIONS } from '../toolshield.module-definition.js';

/** The module's `approvals.store` under the `ApprovalStore` token, in memory by default. */
export const approvalStoreProvider: Provider = {
  provide: ApprovalStore,
  useFactory: (options: ToolShieldModuleOptions) =>
    options.approvals?.store ?? new InMemoryApprovalStore(),
  inject: [TOOLSHIELD_MODULE_OPTIONS],
};

import type { ToolBatchOptions, ToolCallLedgerStore } from '@toolshield/core/agent';

/**
 * Batch settings every `ToolBatchRunner.run()` and every runner from `AgentRunnerFactory`
 * starts from; their own options override them.
 *
 * @publicApi
 */
export type ToolBatchDefaults = Omit<ToolBatchOptions, 'signal' | 'onEntry'>;

/**
 * The `agent` options of `ToolShieldModule.forRoot()`.
 *
 * @publicApi
 */
export interface ToolShieldAgentOptions {
  /** Strategy, concurrency and terminating tools of every batch (default: sequential, `ask`/`complete`/`attempt_completion`). */
  readonly batch?: ToolBatchDefaults;
  /**
   * Where conversation histories are kept, so a run survives a restart (default: in memory).
   * It is provided under the `ToolCallLedgerStore` token.
   */
  readonly ledgerStore?: ToolCallLedgerStore;
}

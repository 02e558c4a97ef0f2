import type { ConversationMessage } from '../conversation/conversation-message.js';

/**
 * Where a conversation's history lives between processes, so a ledger survives a restart.
 * Implement it over your database; `InMemoryToolCallLedgerStore` is the default. Provide an
 * implementation under the same-named token in Nest.
 *
 * @publicApi
 */
export interface ToolCallLedgerStore {
  /** The saved history, or `undefined` for a new conversation. */
  load(conversationId: string): Promise<readonly ConversationMessage[] | undefined>;
  /** Replaces the saved history. */
  save(conversationId: string, messages: readonly ConversationMessage[]): Promise<void>;
}

/** Injection token for {@link ToolCallLedgerStore} (the interface and the token share a name). @publicApi */
export const ToolCallLedgerStore = Symbol('ToolCallLedgerStore');

/**
 * Keeps histories in process memory (copies in and out, so nobody shares mutable state).
 *
 * @publicApi
 */
export class InMemoryToolCallLedgerStore implements ToolCallLedgerStore {
  private readonly histories = new Map<string, readonly ConversationMessage[]>();

  async load(conversationId: string): Promise<readonly ConversationMessage[] | undefined> {
    const saved = this.histories.get(conversationId);
    return saved && structuredClone(saved);
  }

  async save(conversationId: string, messages: readonly ConversationMessage[]): Promise<void> {
    this.histories.set(conversationId, structuredClone(messages));
  }
}

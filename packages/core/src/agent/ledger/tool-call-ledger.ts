import type {
  ConversationMessage,
  ToolResultMessage,
} from '../conversation/conversation-message.js';
import {
  repairToolCallHistory,
  type ToolCallRepairOptions,
  type ToolCallRepairReport,
} from './repair-tool-call-history.js';
import { InMemoryToolCallLedgerStore, type ToolCallLedgerStore } from './tool-call-ledger-store.js';

/**
 * The history of one conversation and the tool calls still waiting for a result. Call
 * `repair()` before every model request (the `AgentRunner` does) so a crash, timeout,
 * interrupt or restart never leaves the history in a state the provider rejects.
 *
 * @example
 * const ledger = await ToolCallLedger.open('conv-1', store);
 * ledger.append(assistantMessageWithToolCalls);
 * await ledger.save();
 * // ... process restarts ...
 * const resumed = await ToolCallLedger.open('conv-1', store);
 * resumed.repair(); // every pending call now has a `cancelled` result
 *
 * @publicApi
 */
export class ToolCallLedger {
  private history: ConversationMessage[];
  private lastSave: Promise<unknown> = Promise.resolve();

  constructor(
    readonly conversationId: string,
    private readonly store: ToolCallLedgerStore = new InMemoryToolCallLedgerStore(),
    messages: readonly ConversationMessage[] = [],
  ) {
    this.history = [...messages];
  }

  /** Loads the conversation's saved history (empty when there is none). */
  static async open(conversationId: string, store: ToolCallLedgerStore): Promise<ToolCallLedger> {
    return new ToolCallLedger(conversationId, store, (await store.load(conversationId)) ?? []);
  }

  /** The history, oldest first. */
  get messages(): readonly ConversationMessage[] {
    return this.history;
  }

  /** Adds messages to the end of the history. */
  append(...messages: ConversationMessage[]): void {
    this.history.push(...messages);
  }

  /** Replaces the tool message answering `message.toolCallId`; `false` when there is none. */
  replaceToolResult(message: ToolResultMessage): boolean {
    const index = this.history.findIndex(
      (old) => old.role === 'tool' && old.toolCallId === message.toolCallId,
    );
    if (index < 0) return false;
    this.history[index] = message;
    return true;
  }

  /** Ids of the tool calls that have no result yet, in the order they were made. */
  pendingCallIds(): string[] {
    const answered = new Set(
      this.history.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])),
    );
    return this.history.flatMap((message) =>
      message.role === 'assistant'
        ? (message.toolCalls ?? []).map((call) => call.id).filter((id) => !answered.has(id))
        : [],
    );
  }

  /**
   * Brings the history into provider-valid shape; see `repairToolCallHistory`. Call it between
   * batches, not while one runs: a call still running counts as interrupted.
   */
  repair(options?: ToolCallRepairOptions): ToolCallRepairReport {
    const { messages, report } = repairToolCallHistory(this.history, options);
    this.history = messages;
    return report;
  }

  /**
   * Saves the current history. Saves run one after another, each writing the history as it
   * is when its turn comes, so the store never ends up with an older history than a later
   * save wrote.
   */
  save(): Promise<void> {
    const next = this.lastSave.then(() => this.store.save(this.conversationId, [...this.history]));
    this.lastSave = next.catch(() => undefined);
    return next;
  }
}

import type { ChatModel } from '@toolshield/core/agent';

/** A model the demo can run, and how the transcript names it. */
export interface AgentModel {
  /** One line for the transcript's header. */
  readonly label: string;
  readonly chat: ChatModel;
}

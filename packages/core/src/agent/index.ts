export * from './conversation/conversation-message.js';
export {
  toOpenAIMessages,
  type OpenAIChatMessage,
  type OpenAIToolCall,
} from './conversation/openai-messages.js';
export {
  toAnthropicMessages,
  type AnthropicContentBlock,
  type AnthropicConversation,
  type AnthropicMessage,
} from './conversation/anthropic-messages.js';
export * from './validation/history-violation.js';
export * from './validation/validate-openai-history.js';
export * from './validation/validate-anthropic-history.js';
export * from './outcomes/tool-result-message.js';
export * from './ledger/repair-tool-call-history.js';
export * from './ledger/tool-call-ledger-store.js';
export * from './ledger/ledger-store.rule.js';
export * from './ledger/tool-call-ledger.js';
export type { ToolCallExecutor, ToolCallExecutorOptions } from './batch/tool-call-executor.js';
export * from './batch/run-tool-batch.js';
export * from './batch/tool-batch-options.rule.js';
export * from './decision/decision-prompt.js';
export * from './decision/decision-prompt-policy.js';
export * from './guards/canonical-json.js';
export * from './guards/loop-guard.js';
export * from './guards/loop-guard-options.rule.js';
export * from './runner/chat-model.js';
export * from './runner/agent-run-result.js';
export * from './runner/agent-runner.js';
export { completionToolDefinition } from './runner/completion-tool.js';
export * from './runner/agent-runner-options.rule.js';

export type {
  ToolBatchDefaults,
  ToolShieldAgentOptions,
} from './toolshield-agent-options.interface.js';
export type { AgentExecuteOptions, AgentExecuteOptionsFactory } from './tool-call-executor.js';
export { ToolBatchRunner, type ToolBatchRunOptions } from './tool-batch-runner.service.js';
export { AgentRunnerFactory, type ToolShieldAgentRunnerOptions } from './agent-runner.factory.js';

export * from './render-failure-text.js';
export {
  renderOutcomeJson,
  type FailureFormat,
  type OutcomeRenderOptions,
} from './outcome-content.js';
export * from './tool-definition.js';
export * from './openai.js';
export * from './openai-strict-schema.js';
export * from './anthropic.js';
export * from './mcp.js';

/**
 * @toolshield/mastra: toolshield for Mastra.
 *
 * @packageDocumentation
 */
export * from './to-mastra-tools.js';
export * from './shield-mastra-tool.js';
export * from './mcp-error-result.js';
export * from './outcome-model-output.js';
export type { MastraConversationOption } from './conversation-of.js';
export type { ToolArguments } from './tool-input-schema.js';
export * from './toolshield-step.js';
export * from './step-failure.js';

/**
 * @toolshield/openai-agents: toolshield for the OpenAI Agents SDK.
 *
 * @packageDocumentation
 */
export * from './to-agents-tools.js';
export * from './shield-agents-tool.js';
export * from './toolshield-run-config.js';

/**
 * @toolshield/langchain: toolshield for LangChain.js and LangGraph.
 *
 * @packageDocumentation
 */
export * from './to-langchain-tools.js';
export * from './shield-langchain-tool.js';
export * from './outcome-tool-message.js';
export * from './toolshield-interrupt-on.js';

/**
 * @toolshield/ai-sdk: toolshield for the Vercel AI SDK.
 *
 * @packageDocumentation
 */
export * from './to-ai-sdk-tools.js';
export * from './shield-ai-sdk-tools.js';
export * from './tool-outcome-model-output.js';
export type { AiSdkConversationOption } from './conversation-of.js';

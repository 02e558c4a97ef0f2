import type { MastraModelConfig } from '@mastra/core/llm';
import type { MockLanguageModelV4 } from 'ai/test';

export {
  scriptedModel,
  toolResultsSentAt,
  type ScriptedCall,
} from '@toolshield/adapter-testing/ai-model';

/**
 * The scripted model as a Mastra Agent's `model`: Mastra runs the AI SDK 7 mock as it is, but
 * types it against the @ai-sdk/provider version it bundles, so the type is asserted here once.
 */
export function asAgentModel(model: MockLanguageModelV4): MastraModelConfig {
  return model as unknown as MastraModelConfig;
}

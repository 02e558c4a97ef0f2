import type { AgentModel } from './agent-model.js';
import { OpenAICompatibleModel } from './openai-compatible.model.js';
import { ScriptedModel, type ScriptedTask } from './scripted-model.js';

/** The environment variables that switch the demo to a real model. */
export interface ModelEnvironment {
  /** The model name; setting it selects the OpenAI-compatible provider. */
  readonly TOOLSHIELD_MODEL?: string;
  /** The API root; default `https://api.openai.com/v1`. */
  readonly OPENAI_BASE_URL?: string;
  readonly OPENAI_API_KEY?: string;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * The OpenAI-compatible provider when `TOOLSHIELD_MODEL` is set, otherwise the scripted
 * stand-in for `task` (the default: no network, no key).
 */
export function selectModel(env: ModelEnvironment, task: ScriptedTask): AgentModel {
  const model = env.TOOLSHIELD_MODEL?.trim();
  if (!model) return new ScriptedModel(task);
  return new OpenAICompatibleModel({
    baseUrl: env.OPENAI_BASE_URL?.trim() || OPENAI_BASE_URL,
    model,
    apiKey: env.OPENAI_API_KEY?.trim() || undefined,
  });
}

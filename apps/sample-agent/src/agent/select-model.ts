import type { AgentModel } from './agent-model.js';
import { OpenAICompatibleModel } from './openai-compatible.model.js';
import { ScriptedModel, type ScriptedModelOptions, type ScriptedTask } from './scripted-model.js';

/** The environment variables that switch the app to a real model. */
export interface ModelEnvironment {
  /** The model name; setting it selects the OpenAI-compatible provider. */
  readonly TOOLSHIELD_MODEL?: string;
  /** The API root; default `https://api.openai.com/v1`. */
  readonly OPENAI_BASE_URL?: string;
  readonly OPENAI_API_KEY?: string;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The real model `env` selects (`TOOLSHIELD_MODEL` set), or `undefined` for the scripted one. */
export function realModelFrom(env: ModelEnvironment): OpenAICompatibleModel | undefined {
  const model = env.TOOLSHIELD_MODEL?.trim();
  if (!model) return undefined;
  return new OpenAICompatibleModel({
    baseUrl: env.OPENAI_BASE_URL?.trim() || OPENAI_BASE_URL,
    model,
    apiKey: env.OPENAI_API_KEY?.trim() || undefined,
  });
}

/**
 * Picks the model of every run: the OpenAI-compatible provider when `TOOLSHIELD_MODEL` is
 * set (one instance, so its breaker sees every run), otherwise a scripted stand-in for the
 * run's task (the default: no network, no key).
 */
export class ModelSelector {
  private readonly real?: OpenAICompatibleModel;

  constructor(env: ModelEnvironment) {
    this.real = realModelFrom(env);
  }

  /** How the model is named in transcripts and the API. */
  get label(): string {
    return this.real?.label ?? new ScriptedModel({ goals: [] }).label;
  }

  /** The model for a run whose scripted plan is `task`. */
  forTask(task: ScriptedTask, options: ScriptedModelOptions = {}): AgentModel {
    return this.real ?? new ScriptedModel(task, options);
  }
}

/** Injection token of the app's {@link ModelSelector}. */
export const MODEL_SELECTOR = Symbol('ModelSelector');

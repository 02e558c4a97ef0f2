import type { ScriptedTask } from '../agent/scripted-model.js';

/** What the scripted model answers to a task it has no plan for. */
export function standInTask(scenarios: readonly string[]): ScriptedTask {
  return {
    goals: [],
    reply:
      'I am a scripted stand-in, not a language model: I cannot read or act on this task. ' +
      `I only run the built-in scenarios (${scenarios.join(', ')}). ` +
      'Start a run with one of them, or set TOOLSHIELD_MODEL (with OPENAI_BASE_URL and ' +
      'OPENAI_API_KEY) to use a real OpenAI-compatible model.',
  };
}

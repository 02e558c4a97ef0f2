import type { Type } from '@nestjs/common';
import type { ScriptedTask } from '../agent/scripted-model.js';

/** Looks up one of the app's providers (`ModuleRef.get`, `app.get`). */
export type ScenarioServices = <T>(type: Type<T>) => T;

/**
 * A named task the app knows: the user's message, the scripted model's plan for it, and what
 * to set up in the run's world first (the upstream's misbehaviour for the run's calls). Every
 * run has a world of its own (its upstream plan, notes, cluster, news breaker), so scenarios
 * run at once or one after another end the same way.
 */
export interface Scenario {
  /** The name `POST /api/runs` and the demo use. */
  readonly name: string;
  /** One line for lists. */
  readonly title: string;
  /** What the user asks. */
  readonly task: string;
  /** The scripted model's plan. */
  readonly script: ScriptedTask;
  /** Whether the agent can finish it (`false`: it must stop and explain). */
  readonly recoverable: boolean;
  /** Puts the world of the run `runId` in the scenario's starting state. */
  readonly prepare?: (get: ScenarioServices, runId: string) => Promise<void>;
}

/** `attempt_completion` as the completion tool, its argument `result`. */
export const ATTEMPT_COMPLETION = {
  completionTool: 'attempt_completion',
  answerArgument: 'result',
} as const;

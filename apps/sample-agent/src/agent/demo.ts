import type { INestApplicationContext } from '@nestjs/common';
import type { AgentRunResult, ToolEvent } from '@toolshield/core';
import { AgentRunnerFactory, ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { NotesDirectory } from '../tools/notes-directory.js';
import { ModelSelector, type ModelEnvironment } from './select-model.js';
import { formatTranscript } from './transcript.js';
import { TRIP_REQUEST, TRIP_SCRIPT } from './trip-task.js';

const SYSTEM_PROMPT =
  'You are a travel assistant. Use the tools to do what the user asks, then call complete with your answer.';

/** A finished demo conversation. */
export interface DemoRun {
  readonly result: AgentRunResult;
  readonly transcript: string;
}

/**
 * Runs the trip conversation through an `AgentRunner` from toolshield's `AgentRunnerFactory`
 * (every tool call goes through the `ToolExecutor`), with the model `env` selects, and
 * returns the result with a readable transcript.
 */
export async function runDemo(
  app: INestApplicationContext,
  env: ModelEnvironment,
): Promise<DemoRun> {
  const model = new ModelSelector(env).forTask(TRIP_SCRIPT);
  const runner = app.get(AgentRunnerFactory).create({
    model: model.chat,
    systemPrompt: SYSTEM_PROMPT,
    batch: { strategy: 'parallel', concurrency: 4 },
  });

  const events: ToolEvent[] = [];
  const subscription = app.get(ToolExecutor).events$.subscribe((event) => events.push(event));
  let result: AgentRunResult;
  try {
    result = await runner.run({ conversationId: 'paris-trip', input: TRIP_REQUEST });
  } finally {
    subscription.unsubscribe();
  }

  const header = [
    'toolshield sample agent',
    `model: ${model.label}`,
    `tools: ${app.get(ToolRegistry).names().join(', ')}`,
    `notes directory: ${await app.get(NotesDirectory).path()} (removed on exit)`,
  ];
  return { result, transcript: [...header, formatTranscript(result, events)].join('\n') };
}

import { describe, expect, it } from '@jest/globals';
import { noopLogger } from '@mastra/core/logger';
import { createStep, createWorkflow, type Step } from '@mastra/core/workflows';
import { useTravelApp } from '@toolshield/adapter-testing';
import { shieldTool, type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { z } from 'zod';
import { stepOutput } from './step-failure.js';
import { toolshieldStep } from './toolshield-step.js';

const travelApp = useTravelApp();
const City = z.object({ city: z.string() });

/** A one-step workflow whose step Mastra retries up to three times with no delay (its failures not logged). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any step whose input is a city
function oneStepWorkflow(step: Step<string, any, any, any, any, any, any>) {
  const workflow = createWorkflow({
    id: 'trip',
    inputSchema: City,
    outputSchema: z.unknown(),
    retryConfig: { attempts: 3, delay: 0 },
  })
    .then(step)
    .commit();
  workflow.__setLogger(noopLogger);
  return workflow;
}

describe('toolshield tools in Mastra workflow steps', () => {
  it('retries a transient failure inside the step with toolshield, once, and returns the output', async () => {
    const { catalog, clock, tools } = await travelApp();
    const run = await oneStepWorkflow(toolshieldStep(catalog, 'get_forecast')).createRun();
    const result = await clock.runUntilSettled(run.start({ inputData: { city: 'Paris' } }));
    expect(result.status).toBe('success');
    expect(result.status === 'success' && result.result).toEqual({ city: 'Paris', sky: 'clear' });
    expect(tools.flakyAttempts).toEqual([1, 2, 3]);
  });

  it('fails a step at once on a non-recoverable failure, whatever its retries say', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const charge = shieldTool(
      () => {
        calls += 1;
        throw Object.assign(new Error('card blocked'), { status: 403 });
      },
      { name: 'charge_card', clock },
    );
    const step = createStep({
      id: 'charge',
      inputSchema: City,
      outputSchema: z.unknown(),
      retries: 3,
      execute: async ({ inputData }) => stepOutput(await charge(inputData)),
    });
    const run = await oneStepWorkflow(step).createRun();
    const result = await clock.runUntilSettled(run.start({ inputData: { city: 'Paris' } }));
    expect(result.status).toBe('failed');
    expect(calls).toBe(1);
    const failure = (result.status === 'failed' && result.steps['charge']) as {
      error?: { message?: string; cause?: ToolFailure };
    };
    expect(failure.error?.message).toMatch(/^Tool charge_card failed: permission_denied/);
  });

  it('does not multiply retries: a tool toolshield retries fails the step after its own attempts only', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const search = shieldTool(
      () => {
        calls += 1;
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      },
      { name: 'search', idempotent: true, clock },
    );
    const step = createStep({
      id: 'search',
      inputSchema: City,
      outputSchema: z.unknown(),
      retries: 3,
      execute: async ({ inputData }) => stepOutput(await search(inputData)),
    });
    const run = await oneStepWorkflow(step).createRun();
    const result = await clock.runUntilSettled(run.start({ inputData: { city: 'Paris' } }));
    expect(result.status).toBe('failed');
    expect(calls).toBe(3); // toolshield's three attempts, not 3 × 4
  });

  it('leaves a transient failure that toolshield did not retry to the step retries', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const book = shieldTool(
      () => {
        calls += 1;
        if (calls < 3)
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return { booked: true };
      },
      { name: 'book', clock },
    );
    const step = createStep({
      id: 'book',
      inputSchema: City,
      outputSchema: z.unknown(),
      retries: 3,
      execute: async ({ inputData }) => stepOutput(await book(inputData)),
    });
    const run = await oneStepWorkflow(step).createRun();
    const result = await clock.runUntilSettled(run.start({ inputData: { city: 'Paris' } }));
    expect(result.status).toBe('success');
    expect(calls).toBe(3);
  });
});

import { Test, type TestingModule } from '@nestjs/testing';
import type { ToolCallRequest, ToolOutcome } from '@toolshield/core';
import { TOOLSHIELD_CLOCK, TOOLSHIELD_RANDOM, ToolExecutor, ToolPipeline } from '@toolshield/nest';
import { ToolErrorClassifier } from '@toolshield/nest/internal';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { ChaosModule } from '../nest/chaos.module.js';
import { createRandomSource } from '../random/random-stream.js';
import { deriveSeed } from '../random/seed.js';
import type { ChaosHarnessConfig } from './chaos-harness-config.js';
import type { ChaosScenario, ChaosScenarioCall } from './chaos-scenario.js';
import { CallRecorder } from './call-recorder.js';
import { ChaosAppStartError } from './chaos-app-start.error.js';
import { HarnessClock } from './harness-clock.js';
import type { RecordedRun } from './recorded-run.js';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * Runs one scenario with one seed against the application: a testing module of the user's
 * module with `ToolShieldModule`'s clock replaced by a virtual one, its retry jitter drawn from
 * the seed (so a seed replays a run exactly), and `ChaosModule` enabled
 * with the scenario's rules and seed; `count` calls through the real `ToolExecutor`; time
 * moved on while calls are running; then the app closed and what is left counted.
 */
export async function runScenarioSeed(
  config: ChaosHarnessConfig,
  scenario: ChaosScenario,
  seed: number,
): Promise<RecordedRun> {
  const clock = new HarnessClock({ maxTimersPerRun: Number.POSITIVE_INFINITY });
  const builder = Test.createTestingModule({
    imports: [
      config.module,
      ChaosModule.forRoot({
        enabled: true,
        seed,
        rules: scenario.rules,
        allowInProduction: config.allowInProduction ?? false,
      }),
    ],
  })
    .overrideProvider(TOOLSHIELD_CLOCK)
    .useValue(clock)
    .overrideProvider(TOOLSHIELD_RANDOM)
    .useValue(createRandomSource(deriveSeed(seed, 'toolshield:retry-jitter')));
  let app: TestingModule | undefined;
  let recorder: CallRecorder;
  try {
    app = await (config.configure?.(builder) ?? builder).compile();
    app.useLogger(false);
    recorder = new CallRecorder(clock, app.get(ToolErrorClassifier, { strict: false }));
    app.get(ToolPipeline, { strict: false }).useInnermost(recorder.interceptor);
    await app.init();
  } catch (error) {
    await app?.close().catch(() => undefined);
    throw new ChaosAppStartError(scenario.name, seed, error);
  }

  const executor = app.get(ToolExecutor, { strict: false });
  const subscription = executor.events$.subscribe((event) => recorder.onEvent(event));
  const count = scenario.count ?? 100;
  let next = 0;
  let settled = 0;
  const makeCall = async (index: number) => {
    const call = scenario.calls[index % scenario.calls.length] as ChaosScenarioCall;
    const callId = `call-${index + 1}`;
    const record = recorder.open(callId, call.tool);
    const request = {
      id: callId,
      name: call.tool,
      arguments: argumentsOf(call, index, seed) as ToolCallRequest['arguments'],
    };
    let pending: Promise<ToolOutcome>;
    try {
      pending = executor.execute(request, scenario.execute);
    } catch (error) {
      record.rejection(error);
      return;
    }
    await pending.then(record.outcome, record.rejection);
  };
  const worker = async () => {
    while (next < count) {
      await makeCall(next++);
      settled++;
    }
  };
  for (let started = 0; started < Math.min(scenario.concurrency ?? 10, count); started++) {
    void worker();
  }
  await moveTimeUntil(clock, () => settled === count, scenario.maxVirtualMs ?? DAY_MS);
  subscription.unsubscribe();
  await app.close();
  return {
    calls: recorder.recordedCalls(),
    events: recorder.events,
    // Everything toolshield, chaos and the tools schedule on the module's clock.
    openHandles: clock.pendingTimers,
  };
}

function argumentsOf(call: ChaosScenarioCall, index: number, seed: number): unknown {
  return call.argumentsFor ? call.argumentsFor(index, seed) : (call.arguments ?? {});
}

/**
 * Moves virtual time from timer to timer until `done`, or until nothing can happen any more
 * (no timer pending, or `maxVirtualMs` passed): calls still running then never settle.
 */
async function moveTimeUntil(
  clock: HarnessClock,
  done: () => boolean,
  maxVirtualMs: number,
): Promise<void> {
  const deadline = clock.now() + maxVirtualMs;
  for (let idle = 0; !done() && idle < 2;) {
    const due = clock.nextDue();
    if (due === undefined || due > deadline) {
      idle++;
      await nextMacrotask();
    } else {
      idle = 0;
      await clock.advanceTo(due);
    }
  }
}

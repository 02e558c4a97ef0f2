import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { classifyError, type ToolFailure } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { createToolFailure, SystemClock } from '@toolshield/core/internal';
import { createToolApp } from '../fixtures/create-app.js';
import { eventTexts, framesIn, leaksOf, renderings } from './leak-check.js';
import { LeakyTools } from './leaky.tools.js';
import { LOOK_ALIKES } from './look-alikes.js';
import { SECRET_SAMPLES } from './secret-samples.js';
import { STACK_WAYS } from './stack-ways.js';
import { THROW_WAYS } from './throw-ways.js';

/** What leaves one call: the failure, and every event the call put on `events$`. */
interface Exit {
  readonly failure: ToolFailure;
  readonly events: readonly ToolEvent[];
}

/** Each corpus case runs every sample through a real application: generous on a busy machine. */
const CORPUS_TIMEOUT_MS = 60_000;

describe('no secret and no stack frame leaves a tool call', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: LeakyTools;
  let events: ToolEvent[] = [];

  beforeAll(async () => {
    ctx = await createToolApp([LeakyTools], { clock: new SystemClock() });
    tools = ctx.moduleRef.get(LeakyTools);
    ctx.executor.events$.subscribe((event) => events.push(event));
  });
  afterAll(() => ctx.close());

  const throughExecutor = async (make: () => unknown): Promise<Exit> => {
    events = [];
    tools.next = make;
    const outcome = await ctx.executor.execute({ id: 'call_leak', name: 'leaky', arguments: '{}' });
    expect(outcome.success).toBe(false);
    return { failure: outcome as ToolFailure, events };
  };

  const throughCore = (make: () => unknown): Exit => ({
    failure: createToolFailure(classifyError(make()), {
      tool: 'leaky',
      callId: 'call_core',
      durationMs: 1,
    }),
    events: [],
  });

  const texts = ({ failure, events: seen }: Exit) => ({
    ...renderings(failure),
    ...eventTexts(seen),
  });

  it('has a corpus of at least 60 secrets thrown 18 ways', () => {
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(60);
    expect(THROW_WAYS.length).toBeGreaterThanOrEqual(18);
    for (const sample of SECRET_SAMPLES) expect(sample.text).toContain(sample.secret);
  });

  describe.each(THROW_WAYS)('$way', ({ make }) => {
    it(
      'leaks no secret through the ToolExecutor (failure, renderings, events)',
      async () => {
        const leaks: string[] = [];
        for (const { family, secret, text } of SECRET_SAMPLES) {
          const exit = await throughExecutor(() => make(text, secret));
          expect(exit.events.some((event) => event.type === 'attempt.failed')).toBe(true);
          leaks.push(...leaksOf(secret, texts(exit)).map((leak) => `${family} → ${leak}`));
        }
        expect(leaks).toEqual([]);
      },
      CORPUS_TIMEOUT_MS,
    );

    it(
      'leaks no secret through classifyError + createToolFailure',
      () => {
        const leaks: string[] = [];
        for (const { family, secret, text } of SECRET_SAMPLES) {
          const exit = throughCore(() => make(text, secret));
          leaks.push(...leaksOf(secret, texts(exit)).map((leak) => `${family} → ${leak}`));
        }
        expect(leaks).toEqual([]);
      },
      CORPUS_TIMEOUT_MS,
    );
  });

  it.each(LOOK_ALIKES)('keeps the look-alike %j', async (text) => {
    const { failure, events: seen } = await throughExecutor(() => new Error(text));
    expect(failure.error).toContain(text.slice(0, 60));
    const attempt = seen.find((event) => event.type === 'attempt.failed');
    expect(attempt && 'message' in attempt ? attempt.message : '').toContain(text.slice(0, 60));
    expect(throughCore(() => new Error(text)).failure.error).toContain(text.slice(0, 60));
  });

  describe.each(STACK_WAYS)('$way', ({ make }) => {
    it('puts no stack frame in the failure, its renderings or the events', async () => {
      expect(framesIn(texts(await throughExecutor(make)))).toEqual([]);
      expect(framesIn(texts(throughCore(make)))).toEqual([]);
    });
  });
});

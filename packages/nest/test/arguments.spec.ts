import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ToolFailure } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import fc from 'fast-check';
import { createToolApp } from './fixtures/create-app.js';
import { WeatherTools } from './fixtures/weather.tools.js';

/** `{ city: 'Paris' }` plus an own, non-enumerable `__proto__` that `Object.keys` never shows. */
function hiddenProto(): object {
  return Object.defineProperty({ city: 'Paris' }, '__proto__', { value: { isAdmin: true } });
}

const NO_DTO = 'sequential-thinking__sequentialthinking';
const DTO = 'get_weather';

describe('arguments built in code', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  let tools: WeatherTools;
  const events: ToolEvent[] = [];

  beforeAll(async () => {
    app = await createToolApp([WeatherTools]);
    tools = app.moduleRef.get(WeatherTools);
    app.executor.events$.subscribe((event) => events.push(event));
  });
  afterAll(() => app.close());

  const run = (name: string, args: unknown) =>
    app.executor.execute({ id: 'call_1', name, arguments: args as string });

  it.each([
    [
      NO_DTO,
      'a non-enumerable own __proto__',
      hiddenProto,
      '__proto__',
      "the key '__proto__' is not allowed",
    ],
    [
      DTO,
      'a non-enumerable own __proto__',
      hiddenProto,
      '__proto__',
      "the key '__proto__' is not allowed",
    ],
    [
      NO_DTO,
      'an inherited prototype',
      () => Object.create({ thought: 'hi' }),
      '',
      'an object with an inherited prototype is not plain data',
    ],
    [
      DTO,
      'an inherited prototype',
      () => Object.create({ city: 'Paris' }),
      '',
      'an object with an inherited prototype is not plain data',
    ],
    [
      DTO,
      'a Date',
      () => ({ city: 'Paris', near: new Date(0) }),
      'near',
      'an instance of Date is not plain data',
    ],
    [
      DTO,
      'a cycle',
      () => {
        const a: Record<string, unknown> = { city: 'Paris' };
        a.near = a;
        return a;
      },
      'near',
      'refers back to an object that contains it (a cycle)',
    ],
    [
      NO_DTO,
      'a getter',
      () => ({
        get thought() {
          return 'x';
        },
      }),
      'thought',
      'a getter or setter is not plain data',
    ],
    [
      DTO,
      'a BigInt',
      () => ({ city: 'Paris', near: { lat: 1n, lon: 2 } }),
      'near.lat',
      'a bigint is not plain data',
    ],
  ])(
    '%s: refuses %s as invalid_input with its path, before the tool runs',
    async (name, _, build, path, message) => {
      const before = tools.calls.length;
      const outcome = (await run(name, build())) as ToolFailure;
      expect(outcome).toMatchObject({
        success: false,
        errorType: 'invalid_input',
        error: `Arguments rejected: ${message} at '${path}'.`,
        issues: [expect.objectContaining({ path })],
      });
      expect(tools.calls.length).toBe(before);
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    },
  );

  it('runs both kinds of tool with a plain copy of plain data', async () => {
    const bare = Object.assign(Object.create(null) as object, { city: 'Paris', units: 'metric' });
    await expect(run(DTO, bare)).resolves.toMatchObject({
      success: true,
      output: { city: 'Paris', isDto: true },
    });
    const thought = { thought: 'step one' };
    await expect(run(NO_DTO, thought)).resolves.toMatchObject({ success: true });
    expect(tools.calls.at(-1)?.args).toEqual(thought);
    expect(tools.calls.at(-1)?.args).not.toBe(thought);
  });

  it('never lets a hazard reach a tool, and never ends internal (property)', async () => {
    const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'city', 'thought');
    const value = fc.anything({
      key: hostileKey,
      maxDepth: 2,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withSparseArray: true,
    });
    const args = fc
      .tuple(fc.dictionary(hostileKey, value, { maxKeys: 3 }), fc.nat({ max: 3 }), hostileKey)
      .map(([plain, hazard, key]) => {
        const target = { city: 'Paris', ...plain };
        if (hazard === 1) Object.defineProperty(target, key, { value: { isAdmin: true } });
        if (hazard === 2) Object.setPrototypeOf(target, { isAdmin: true });
        return target;
      });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(DTO, NO_DTO), args, async (name, built) => {
        const before = tools.calls.length;
        const outcome = await run(name, built);
        if (!outcome.success) expect(outcome.errorType).not.toBe('internal');
        for (const { args: received } of tools.calls.slice(before)) expectNoHazard(received);
        expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('echoes a huge unknown tool name capped at 128 characters, events included', async () => {
    events.length = 0;
    const outcome = (await run('x'.repeat(100_000), '{}')) as ToolFailure;
    expect(outcome.errorType).toBe('tool_not_found');
    expect(outcome.tool).toBe(`${'x'.repeat(127)}…`);
    expect(outcome.error.length).toBeLessThan(400);
    expect(JSON.stringify(outcome).length).toBeLessThan(2_000);
    expect(events.map((event) => 'tool' in event && event.tool)).toEqual([
      outcome.tool,
      outcome.tool,
    ]);
  });
});

/** Fails if a prototype-reaching key, a getter or a non-plain object is anywhere inside `value`. */
function expectNoHazard(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const prototype = Object.getPrototypeOf(value);
  const plain = [Object.prototype, Array.prototype, null].includes(prototype);
  expect(
    plain ||
      prototype.constructor?.name === 'GetWeatherArgs' ||
      prototype.constructor?.name === 'Coordinates',
  ).toBe(true);
  for (const key of Reflect.ownKeys(value)) {
    expect(['__proto__', 'constructor', 'prototype']).not.toContain(key);
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    expect(descriptor && 'value' in descriptor).toBe(true);
    expectNoHazard(descriptor?.value);
  }
}

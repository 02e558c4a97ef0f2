import { describe, expect, it } from '@jest/globals';
import type { ToolEvent } from '@toolshield/core/events';
import { filter, map } from 'rxjs';
import { createToolApp } from './fixtures/create-app.js';
import { WeatherTools } from './fixtures/weather.tools.js';

const call = { name: 'get_weather', arguments: { city: 'Oslo' } };
const typesOf = (events: ToolEvent[]) => events.map((event) => event.type);

describe('ToolExecutor.events$ (its subscribers)', () => {
  it('reaches every subscriber in the order they subscribed, operators included', async () => {
    const ctx = await createToolApp([WeatherTools]);
    const seen: string[] = [];
    ctx.executor.events$.subscribe((event) => seen.push(`a ${event.type}`));
    ctx.executor.events$
      .pipe(
        filter((event) => event.type === 'call.succeeded'),
        map((event) => `b ${event.type}`),
      )
      .subscribe((line) => seen.push(line));
    await ctx.executor.execute({ id: 'c1', ...call });
    expect(seen).toEqual(['a call.started', 'a call.succeeded', 'b call.succeeded']);
    await ctx.close();
  });

  it('lets a subscriber leave in the middle of an event without the next one missing it', async () => {
    const ctx = await createToolApp([WeatherTools]);
    const first: ToolEvent[] = [];
    const second: ToolEvent[] = [];
    const leaving = ctx.executor.events$.subscribe((event) => {
      first.push(event);
      leaving.unsubscribe();
    });
    ctx.executor.events$.subscribe((event) => second.push(event));
    await ctx.executor.execute({ id: 'c1', ...call });
    expect(typesOf(first)).toEqual(['call.started']);
    expect(typesOf(second)).toEqual(['call.started', 'call.succeeded']);
    await ctx.close();
  });

  it('completes its subscribers at shutdown, and a late one at once', async () => {
    const ctx = await createToolApp([WeatherTools]);
    let completed = 0;
    ctx.executor.events$.subscribe({ complete: () => completed++ });
    await ctx.close();
    expect(completed).toBe(1);
    ctx.executor.events$.subscribe({ complete: () => completed++ });
    expect(completed).toBe(2);
  });
});

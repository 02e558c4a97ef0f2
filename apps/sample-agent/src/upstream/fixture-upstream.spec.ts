import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startFixtureUpstream, type FixtureUpstream } from './fixture-upstream.js';

describe('the fixture upstream', () => {
  let upstream: FixtureUpstream;
  beforeEach(async () => (upstream = await startFixtureUpstream()));
  afterEach(() => upstream.close());

  const search = async (run?: string) =>
    (await fetch(`${upstream.url}/search?q=x`, { headers: run ? { 'x-run-id': run } : {} })).status;

  it("plays a run's plan to that run's requests only", async () => {
    upstream.plan('search', { next: [{ kind: 'unavailable' }, { kind: 'unavailable' }] }, 'a');
    upstream.plan('search', { next: [{ kind: 'rate_limited', retryAfterSeconds: 0 }] }, 'b');
    expect([await search('b'), await search(), await search('a'), await search('c')]).toEqual([
      429, 200, 503, 200,
    ]);
    expect([await search('a'), await search('a'), await search('b')]).toEqual([503, 200, 200]);
    expect(upstream.hits.search).toBe(7);
  });

  it("plays the shared plan to runs without one, set over HTTP as a run's plan is", async () => {
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${upstream.url}/__plan/search`, {
        method: 'PUT',
        headers,
        body: JSON.stringify(body),
      });
    await put({ then: { kind: 'unavailable' } });
    await put({ next: [{ kind: 'rate_limited' }] }, { 'x-run-id': 'a' });
    expect([await search('a'), await search('a'), await search('b'), await search()]).toEqual([
      429, 200, 503, 503,
    ]);
    upstream.forgetRun('a');
    expect(await search('a')).toBe(503);
    upstream.reset();
    expect(await search('a')).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

interface RunEventData {
  readonly type: string;
  readonly tool?: string;
  readonly result?: { readonly output: unknown; readonly metadata: Record<string, unknown> };
}

describe('the stale-search scenario over real HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('cuts the long page to its budget, and answers the search from the cache, marked stale, while the upstream is down', async () => {
    const created = await server.request('POST', '/api/runs', {
      task: 'Do it.',
      scenario: 'stale-search',
    });
    const id = created.body.id as string;
    const stream = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    const events = stream.events.map(
      (event) => (JSON.parse(event.data) as { data: RunEventData }).data,
    );
    const run = (await server.request('GET', `/api/runs/${id}`)).body;
    expect(run).toMatchObject({ status: 'completed', scenario: 'stale-search' });

    const answered = events.filter((event) => event.type === 'call.succeeded');
    const page = answered.find((event) => event.tool === 'fetch_page');
    expect(page?.result?.metadata['output']).toMatchObject({
      cut: true,
      characters: { total: expect.any(Number) },
    });
    expect(Buffer.byteLength(JSON.stringify(page?.result?.output))).toBeLessThanOrEqual(8_000);

    const searches = answered.filter((event) => event.tool === 'web_search');
    expect(
      searches.map((event) => (event.result?.metadata['cache'] as { lookup: string }).lookup),
    ).toEqual(['miss', 'stale']);
    expect(searches[1]?.result?.metadata['cache']).toMatchObject({
      staleBecause: 'upstream_unavailable',
    });
    // What the model read says so, with the age.
    const read = run.messages.filter((message: { role: string }) => message.role === 'tool');
    expect(
      read.some((message: { content: string }) =>
        /^\{"note":"Stale answer from \d/.test(message.content),
      ),
    ).toBe(true);
    expect(run.finalAnswer).toMatch(/came from the cache: Stale answer from/);
  });
});

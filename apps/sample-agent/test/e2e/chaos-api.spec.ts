import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ToolExecutor } from '@toolshield/nest';
import fc from 'fast-check';
import { startTestServer } from '../fixtures/test-server.js';

/** Read-only, idempotent tools of the app (a rule without a tool list only touches these). */
const SAFE_READS = ['list_pods', 'get_weather', 'calculate', 'read_note'];
/** Tools that change something or are not idempotent. */
const WRITES = ['create_namespace', 'deploy', 'write_note', 'append_note'];
/** Valid arguments of each, so the call gets past validation to the chaos interceptor. */
const ARGUMENTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  list_pods: { namespace: 'default' },
  get_weather: { city: 'Paris' },
  calculate: { expression: '1 + 1' },
  read_note: { name: 'chaos-probe' },
  create_namespace: { namespace: 'chaos-probe' },
  deploy: { namespace: 'default', name: 'probe', image: 'nginx:1.27' },
  write_note: { name: 'chaos-probe', text: 'probe' },
  append_note: { name: 'chaos-probe', line: 'probe' },
};

describe('the chaos API over real HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());
  beforeEach(async () => {
    expect((await server.request('POST', '/api/chaos/reset')).status).toBe(200);
  });

  /** Which tools `rule` matches, read from its counter after one call of each tool. */
  async function toolsMatchedBy(rule: Record<string, unknown>, tools: readonly string[]) {
    const put = await server.request('PUT', '/api/chaos', {
      enabled: true,
      rules: [{ ...rule, name: 'probe', fault: { kind: 'latency', ms: 0 } }],
    });
    expect(put.status).toBe(200);
    const executor = server.app.get(ToolExecutor);
    const matched: string[] = [];
    for (const tool of tools) {
      const before = (await server.request('GET', '/api/chaos')).body.rules[0].matchedCalls;
      await executor.execute({ name: tool, arguments: ARGUMENTS[tool] });
      const after = (await server.request('GET', '/api/chaos')).body.rules[0].matchedCalls;
      if (after > before) matched.push(tool);
    }
    return matched;
  }

  it('takes back what GET returned, counters included, with enabled flipped', async () => {
    await server.request('PUT', '/api/chaos', { enabled: true });
    await server.app
      .get(ToolExecutor)
      .execute({ name: 'calculate', arguments: { expression: '1+1' } });
    const read = await server.request('GET', '/api/chaos');
    expect(read.body.rules[0]).toMatchObject({ matchedCalls: expect.any(Number) });
    const written = await server.request('PUT', '/api/chaos', { ...read.body, enabled: false });
    // The counters are read-only: whatever a client sends for them is ignored.
    const edited = read.body.rules.map((rule: object) => ({
      ...rule,
      matchedCalls: 'many',
      injections: -3,
    }));
    expect((await server.request('PUT', '/api/chaos', { rules: edited })).status).toBe(200);
    expect(written.status).toBe(200);
    expect(written.body.enabled).toBe(false);
    expect(written.body.rules.map((rule: { name: string }) => rule.name)).toEqual(
      read.body.rules.map((rule: { name: string }) => rule.name),
    );
  });

  it.each([
    [{ probability: 1.5 }, /^rules\[0\]: "probability" must be a number from 0 to 1\./],
    [{ everyNth: 1.5 }, /everyNth/],
    [{ firstN: -1 }, /"firstN"/],
    [{ colour: 'red' }, /^rules\[0\]: unknown field "colour"; known: name, tools, fault, /],
    [JSON.parse('{"__proto__": {"x": 1}}'), /unknown field "__proto__"/],
    [{ tools: 'web_search' }, /"tools" must be a list/],
    [{ tools: [] }, /"tools" must name at least one tool/],
    [
      { fault: { kind: 'latency', ms: 5, jitter: 3 } },
      /^rules\[0\]: unknown field "fault\.jitter"; a latency fault takes ms\.$/,
    ],
  ])('refuses the rule field %j with a 400 naming it', async (extra, message) => {
    const rule = { name: 'bad', fault: { kind: 'upstream_error' }, ...extra };
    const response = await server.request('PUT', '/api/chaos', { rules: [rule] });
    expect(response).toMatchObject({ status: 400, body: { statusCode: 400 } });
    expect(response.body.message).toMatch(message);
    expect(
      (await server.request('GET', '/api/chaos')).body.rules.map((r: { name: string }) => r.name),
    ).not.toContain('bad');
  });

  it('refuses, with a 400 listing the tools, a rule naming a tool that does not exist', async () => {
    for (const [tools, unknown] of [
      [['get_wether'], 'get_wether'],
      [['web_search', 'nope_*'], 'nope_\\*'],
    ] as const) {
      const response = await server.request('PUT', '/api/chaos', {
        rules: [{ name: 'typo', tools, fault: { kind: 'rate_limit' } }],
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(
        new RegExp(`^rules\\[0\\]: "tools" names no tool of this app: "${unknown}"; the tools: `),
      );
      expect(response.body.message).toContain('get_weather');
    }
    const glob = await server.request('PUT', '/api/chaos', {
      rules: [{ name: 'web', tools: ['web_*'], fault: { kind: 'rate_limit' } }],
    });
    expect(glob.status).toBe(200);
  });

  it('applies a rule without a tool list only to idempotent, read-only tools; "*" reaches every tool', async () => {
    expect(await toolsMatchedBy({}, [...SAFE_READS, ...WRITES])).toEqual(SAFE_READS);
    expect(await toolsMatchedBy({ tools: ['*'] }, [...SAFE_READS, ...WRITES])).toEqual([
      ...SAFE_READS,
      ...WRITES,
    ]);
  });

  it('answers any body that is not a valid settings object with a 400, never a 500', async () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          json,
          fc.record(
            { enabled: json, rules: fc.array(fc.dictionary(fc.string(), json)) },
            { requiredKeys: [] },
          ),
        ),
        async (body) => {
          const response = await server.request('PUT', '/api/chaos', JSON.stringify(body));
          expect([200, 400]).toContain(response.status);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('restores the default rules, seed and switch with POST /api/chaos/reset', async () => {
    const defaults = (await server.request('GET', '/api/chaos')).body;
    await server.request('PUT', '/api/chaos', {
      enabled: true,
      rules: [{ name: 'all-503', tools: ['*'], fault: { kind: 'upstream_error' } }],
    });
    const reset = await server.request('POST', '/api/chaos/reset');
    expect(reset).toMatchObject({ status: 200, body: defaults });
    expect(reset.body).toMatchObject({ enabled: false, seed: 7 });
    expect(reset.body.rules.map((rule: { name: string }) => rule.name)).toEqual([
      'search-rate-limited',
      'reads-reset',
      'reads-slow',
    ]);
  });
});

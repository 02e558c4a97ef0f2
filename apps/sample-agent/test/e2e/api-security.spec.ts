import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import { startTestServer } from '../fixtures/test-server.js';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** What a browser on another site can send without a preflight. */
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the runs API refuses other sites and anything but JSON', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('refuses a cross-site form post (403), starting nothing', async () => {
    const response = await server.request('POST', '/api/runs', 'task=deploy', {
      ...FORM,
      origin: 'http://evil.example',
    });
    expect(response).toMatchObject({
      status: 403,
      body: {
        statusCode: 403,
        error: 'Forbidden',
        message: expect.stringContaining('evil.example'),
      },
    });
    expect((await server.request('GET', '/api/runs')).body).toEqual([]);
  });

  it('refuses a JSON post from another origin, the same host on another port included', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const response = await server.request('POST', '/api/runs', { task: 'x' }, { origin });
      expect(response.status).toBe(403);
    }
    const chaos = await server.request(
      'PUT',
      '/api/chaos',
      { enabled: true },
      { origin: 'http://evil.example' },
    );
    expect(chaos.status).toBe(403);
    expect((await server.request('GET', '/api/runs')).body).toEqual([]);
  });

  it('answers 415 to a body that is not JSON, from its own origin too', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await server.request('POST', '/api/runs', 'task=x', {
        'content-type': type,
        origin: server.baseUrl,
      });
      expect(response).toMatchObject({
        status: 415,
        body: {
          statusCode: 415,
          error: 'Unsupported Media Type',
          message: expect.stringContaining('application/json'),
        },
      });
    }
  });

  it('starts a run from its own origin and from clients that send no Origin', async () => {
    expect(
      (
        await server.request(
          'POST',
          '/api/runs',
          { task: 'What is 2 + 2?' },
          { origin: server.baseUrl },
        )
      ).status,
    ).toBe(201);
    expect((await server.request('POST', '/api/runs', { task: 'What is 2 + 2?' })).status).toBe(
      201,
    );
    const charset = await server.request('POST', '/api/runs', JSON.stringify({ task: 'x' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(charset.status).toBe(201);
  });

  it('answers a request naming another host (DNS rebinding) with 403', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(
        `${server.baseUrl}/api/runs`,
        { headers: { host: 'evil.example' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(status).toBe(403);
  });

  it('answers a body over the limit with 413 in the same shape as every other error', async () => {
    const response = await server.request(
      'POST',
      '/api/runs',
      JSON.stringify({ task: 'x'.repeat(200_000) }),
      {
        'content-type': 'application/json',
      },
    );
    expect(response).toMatchObject({
      status: 413,
      body: { statusCode: 413, error: 'Payload Too Large', message: expect.any(String) },
    });
  });

  it('refuses a task over the length cap with a 400 naming the field', async () => {
    const response = await server.request('POST', '/api/runs', { task: 'x'.repeat(4_001) });
    expect(response).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: expect.stringMatching(/"task".*4000/) },
    });
  });
});

describe('GET /api/runs pages with limit and cursor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    for (let index = 0; index < 5; index += 1) {
      await server.request('POST', '/api/runs', { task: `Task number ${index}.` });
    }
  });
  afterAll(() => server.close());

  it('walks every run once, newest first, following the Link header', async () => {
    const all = (await server.request('GET', '/api/runs')).body as { id: string }[];
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let next: string | undefined = '/api/runs?limit=2';
    while (next) {
      const page = await server.request('GET', next);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.map((run: { id: string }) => run.id));
      next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      if (next)
        next = new URL(next, server.baseUrl).pathname + new URL(next, server.baseUrl).search;
    }
    expect(seen).toEqual(all.map((run) => run.id));
  });

  it.each([
    ['limit=0', '"limit"'],
    ['limit=abc', '"limit"'],
    ['limit=1000', '"limit"'],
    ['cursor=nonsense', '"cursor"'],
    ['limit=2&limit=3', '"limit"'],
  ])('refuses ?%s with a 400 naming the parameter', async (query, name) => {
    const response = await server.request('GET', `/api/runs?${query}`);
    expect(response).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining(name) },
    });
  });
});

describe('POST /api/runs with an Idempotency-Key', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  it('returns the same run for a retried request, and starts one run', async () => {
    const body = { task: 'What is 2 + 2?' };
    const key = { 'idempotency-key': 'retry-me-1' };
    const first = await server.request('POST', '/api/runs', body, key);
    const [second, third] = await Promise.all([
      server.request('POST', '/api/runs', body, key),
      server.request('POST', '/api/runs', body, key),
    ]);
    expect(first.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(third.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await server.request('GET', '/api/runs')).body).toHaveLength(1);
  });

  it('answers 422 to the same key with a different body', async () => {
    const key = { 'idempotency-key': 'retry-me-2' };
    expect((await server.request('POST', '/api/runs', { task: 'One.' }, key)).status).toBe(201);
    const other = await server.request('POST', '/api/runs', { task: 'Two.' }, key);
    expect(other).toMatchObject({
      status: 422,
      body: { statusCode: 422, message: expect.stringContaining('Idempotency-Key') },
    });
  });

  it('refuses a key that is empty or too long', async () => {
    for (const value of ['', 'k'.repeat(256)]) {
      const response = await server.request(
        'POST',
        '/api/runs',
        { task: 'x' },
        { 'idempotency-key': value },
      );
      expect(response).toMatchObject({
        status: 400,
        body: { message: expect.stringContaining('Idempotency-Key') },
      });
    }
  });
});

describe('API_TOKEN', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('asks for the bearer token on the API and on MCP, not on health', async () => {
    server = await startTestServer(new InMemoryRunStore(), { API_TOKEN: 'sekrit-token-42' });
    const missing = await server.request('POST', '/api/runs', { task: 'x' });
    expect(missing).toMatchObject({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized' },
    });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(
      (await server.request('GET', '/api/runs', undefined, { authorization: 'Bearer wrong' }))
        .status,
    ).toBe(401);
    const ok = await server.request(
      'POST',
      '/api/runs',
      { task: 'x' },
      { authorization: 'Bearer sekrit-token-42' },
    );
    expect(ok.status).toBe(201);
    expect(
      (await server.request('GET', `/api/runs/${ok.body.id}/events?access_token=sekrit-token-42`))
        .status,
    ).toBe(200);
    expect((await server.request('GET', '/api/health')).status).not.toBe(401);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'spec', version: '1.0.0' },
      },
    };
    const accept = { accept: 'application/json, text/event-stream' };
    expect((await server.request('POST', '/mcp', initialize, accept)).status).toBe(401);
    const mcp = await server.request('POST', '/mcp', initialize, {
      ...accept,
      authorization: 'Bearer sekrit-token-42',
    });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('mcp-session-id')).toBeTruthy();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AgentRunner, type ChatModelRequest } from '@toolshield/core/agent';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelCallError, OpenAICompatibleModel } from './openai-compatible.model.js';
import { ScriptedModel } from './scripted-model.js';
import { ModelSelector } from './select-model.js';

interface Received {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Never answer (the client's timeout must end the attempt). */
  readonly hang?: boolean;
}

const COMPLETION = (message: Record<string, unknown>) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'small-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...message } }],
});

/** No real waits between retries: the tests are about what is retried, not how long. */
const FAST_RETRY = { backoff: { baseMs: 1, capMs: 1 } };

describe('OpenAICompatibleModel (the official openai SDK, behind toolshield policies)', () => {
  let server: Server;
  let baseUrl: string;
  let received: Received[];
  let replies: Reply[];

  // A fake OpenAI-compatible endpoint on 127.0.0.1: records requests, answers `replies` in turn.
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: JSON.parse(body || 'null'),
        });
        const reply = (replies.length > 1 ? replies.shift() : replies[0]) as Reply;
        if (reply.hang) return;
        response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        response.end(JSON.stringify(reply.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received = [];
    replies = [{ status: 200, body: COMPLETION({ content: 'Done.' }) }];
  });

  const request: ChatModelRequest = {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Atlantis"}' }],
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        name: 'get_weather',
        content: '{"errorType":"not_found"}',
        isError: true,
      },
    ],
    tools: [
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'complete' },
    ],
  };

  it('posts the history and tools as a Chat Completions request and reads text and tool calls back', async () => {
    replies = [
      {
        status: 200,
        body: COMPLETION({
          content: 'CONTINUE: trying Paris.',
          tool_calls: [
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        }),
      },
    ];
    const model = new OpenAICompatibleModel({
      baseUrl: `${baseUrl}/`,
      model: 'small-model',
      apiKey: 'sk-test-123456',
    });

    await expect(model.chat(request)).resolves.toEqual({
      role: 'assistant',
      content: 'CONTINUE: trying Paris.',
      toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-test-123456', 'content-type': 'application/json' },
    });
    expect(received[0]?.body).toEqual({
      model: 'small-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Atlantis"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"errorType":"not_found"}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
        {
          type: 'function',
          function: { name: 'complete', parameters: { type: 'object', properties: {} } },
        },
      ],
    });
  });

  it('sends no authorization header without a key, and reads a plain answer', async () => {
    const model = new OpenAICompatibleModel({ baseUrl, model: 'local' });
    await expect(
      model.chat({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    ).resolves.toEqual({
      role: 'assistant',
      content: 'Done.',
    });
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(received[0]?.body).toEqual({
      model: 'local',
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('retries a 429 after its Retry-After and a 503, then succeeds', async () => {
    replies = [
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: { message: 'Rate limit reached.' } },
      },
      { status: 503, body: { error: { message: 'Overloaded.' } } },
      { status: 200, body: COMPLETION({ content: 'Third time.' }) },
    ];
    const model = new OpenAICompatibleModel({ baseUrl, model: 'small-model', retry: FAST_RETRY });
    await expect(model.chat(request)).resolves.toMatchObject({ content: 'Third time.' });
    expect(received).toHaveLength(3);
  });

  it('does not retry a 401, and names the cause and the URL without the key', async () => {
    replies = [
      { status: 401, body: { error: { message: 'Incorrect API key provided: sk-wrong-999999.' } } },
    ];
    const model = new OpenAICompatibleModel({
      baseUrl,
      model: 'small-model',
      apiKey: 'sk-wrong-999999',
    });
    const error = await model.chat(request).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toBe(
      `small-model at ${baseUrl}/chat/completions failed (permission_denied, 1 attempt): ` +
        '401 Incorrect API key provided: ***.',
    );
    expect(received).toHaveLength(1);
  });

  it('says what a refused connection is, not a bare "fetch failed"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const model = new OpenAICompatibleModel({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'small-model',
      apiKey: 'sk-secret-123456',
      retry: FAST_RETRY,
    });
    const message = await model.chat(request).then(
      () => '',
      (thrown: unknown) => (thrown as Error).message,
    );
    expect(message).toMatch(
      new RegExp(
        `^small-model at http://127\\.0\\.0\\.1:${port}/v1/chat/completions failed \\(network, 3 attempts\\): .*ECONNREFUSED`,
      ),
    );
    expect(message).not.toContain('sk-secret');
  });

  it('ends an attempt that gets no answer at its timeout', async () => {
    replies = [{ status: 200, hang: true }];
    const model = new OpenAICompatibleModel({
      baseUrl,
      model: 'small-model',
      timeoutMs: 50,
      retry: { maxRetries: 0 },
    });
    await expect(model.chat(request)).rejects.toThrow(/failed \(timeout, 1 attempt\)/);
  });

  it('opens its breaker after repeated failures, and then fails fast without a request', async () => {
    replies = [{ status: 500, body: { error: { message: 'Boom.' } } }];
    const model = new OpenAICompatibleModel({
      baseUrl,
      model: 'small-model',
      retry: { maxRetries: 0 },
      breaker: { volumeThreshold: 3 },
    });
    for (let call = 0; call < 3; call += 1) await model.chat(request).catch(() => undefined);
    const before = received.length;
    await expect(model.chat(request)).rejects.toThrow(/failed \(circuit_open, 1 attempt\): \w+ /);
    expect(received).toHaveLength(before);
  });

  it('ends an agent run with model_error and the clear reason', async () => {
    replies = [{ status: 404, body: { error: { message: 'The model `nope` does not exist.' } } }];
    const model = new OpenAICompatibleModel({ baseUrl, model: 'nope' });
    const runner = new AgentRunner({
      model: model.chat,
      executor: async () => Promise.reject(new Error('unused')),
    });
    const result = await runner.run({ conversationId: 'c', input: 'Hi' });
    expect(result).toMatchObject({ status: 'error', reason: { code: 'model_error' } });
    expect(result.reason.message).toBe(
      `The model request failed: nope at ${baseUrl}/chat/completions failed (not_found, 1 attempt): ` +
        '404 The model `nope` does not exist.',
    );
  });

  it('is selected by TOOLSHIELD_MODEL, and the scripted stand-in otherwise', async () => {
    expect(new ModelSelector({ OPENAI_API_KEY: 'sk-test' }).forTask({ goals: [] })).toBeInstanceOf(
      ScriptedModel,
    );
    const selector = new ModelSelector({
      TOOLSHIELD_MODEL: 'small-model',
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'sk-env-123456',
    });
    const selected = selector.forTask({ goals: [] });
    expect(selected).toBeInstanceOf(OpenAICompatibleModel);
    expect(selected).toBe(selector.forTask({ goals: [] }));
    expect(selector.label).toBe(`small-model at ${baseUrl} (OpenAI-compatible)`);
    await selected.chat({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
    expect(received[0]?.headers.authorization).toBe('Bearer sk-env-123456');
    expect(received[0]?.body).toMatchObject({ model: 'small-model' });
  });
});

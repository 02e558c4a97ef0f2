import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ChatModelRequest } from '@toolshield/core';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAICompatibleModel } from './openai-compatible.model.js';
import { ScriptedModel } from './scripted-model.js';
import { selectModel } from './select-model.js';

interface Received {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

describe('OpenAICompatibleModel', () => {
  let server: Server;
  let baseUrl: string;
  let received: Received[];
  let reply: { status: number; body: unknown };

  // A Chat Completions endpoint on 127.0.0.1 that records every request and answers `reply`.
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: JSON.parse(body),
        });
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received = [];
    reply = { status: 200, body: {} };
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
    reply = {
      status: 200,
      body: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'CONTINUE: trying Paris.',
              tool_calls: [
                {
                  id: 'call_2',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
              ],
            },
          },
        ],
      },
    };
    const model = new OpenAICompatibleModel({
      baseUrl: `${baseUrl}/`,
      model: 'small-model',
      apiKey: 'sk-test',
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
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
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
    reply = {
      status: 200,
      body: { choices: [{ message: { role: 'assistant', content: 'Sunny.' } }] },
    };
    const model = new OpenAICompatibleModel({ baseUrl, model: 'local' });

    await expect(
      model.chat({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    ).resolves.toEqual({
      role: 'assistant',
      content: 'Sunny.',
    });
    expect(received[0]?.headers.authorization).toBeUndefined();
    expect(received[0]?.body).toEqual({
      model: 'local',
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('rejects with the status and the body of an HTTP error', async () => {
    reply = { status: 401, body: { error: { message: 'Incorrect API key provided.' } } };
    const model = new OpenAICompatibleModel({ baseUrl, model: 'small-model', apiKey: 'wrong' });

    await expect(model.chat(request)).rejects.toThrow(
      'small-model answered HTTP 401: {"error":{"message":"Incorrect API key provided."}}',
    );
  });

  it('is selected by TOOLSHIELD_MODEL, and the scripted stand-in otherwise', async () => {
    expect(selectModel({ OPENAI_API_KEY: 'sk-test' }, { goals: [] })).toBeInstanceOf(ScriptedModel);

    const selected = selectModel(
      { TOOLSHIELD_MODEL: 'small-model', OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'sk-env' },
      { goals: [] },
    );
    expect(selected).toBeInstanceOf(OpenAICompatibleModel);
    expect(selected.label).toBe(`small-model at ${baseUrl} (OpenAI-compatible)`);
    reply = {
      status: 200,
      body: { choices: [{ message: { role: 'assistant', content: 'Done.' } }] },
    };
    await selected.chat({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
    expect(received[0]?.headers.authorization).toBe('Bearer sk-env');
    expect(received[0]?.body).toMatchObject({ model: 'small-model' });
  });
});

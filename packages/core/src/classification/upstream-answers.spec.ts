import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseToolArguments } from '../arguments/parse-tool-arguments.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { renderFailureText } from '../rendering/render-failure-text.js';
import { thrownBy } from '../testing/thrown-by.test.js';
import { classifyError } from './classify-error.js';

const OUTAGE_PAGE = '<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>';

/** The tool body of a user who trusts the upstream: `response.json()` whatever the status. */
async function trustingTool(url: string): Promise<unknown> {
  const response = await fetch(url);
  return response.json();
}

/** The tool body of the root README: the status is checked and carried on the error. */
async function carefulTool(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) {
    throw Object.assign(new Error(`Weather service answered HTTP ${response.status}`), {
      status: response.status,
      headers: response.headers,
    });
  }
  return response.json();
}

async function rejectionOf(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const failureText = (thrown: unknown) =>
  renderFailureText(
    createToolFailure(classifyError(thrown), { tool: 'get_weather', callId: 'c', durationMs: 5 }),
  );

describe('an upstream that answers 503 with an HTML page (real HTTP on 127.0.0.1)', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/html', 'retry-after': '7' });
      response.end(OUTAGE_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1?city=Paris`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is not blamed on the model when the tool parses the page as JSON', async () => {
    const thrown = await rejectionOf(() => trustingTool(url));
    expect((thrown as Error).name).toBe('SyntaxError');
    expect(classifyError(thrown).type).toBe('invalid_output');
    expect(failureText(thrown)).not.toMatch(/Fix the arguments/);
  });

  it('is upstream_unavailable, with the status and Retry-After, when the tool checks response.ok', async () => {
    const classified = classifyError(await rejectionOf(() => carefulTool(url)));
    expect(classified).toMatchObject({
      type: 'upstream_unavailable',
      retryAfterMs: 7000,
      metadata: { statusCode: 503 },
    });
  });

  it('still blames the model for its own malformed arguments', () => {
    const thrown = thrownBy(() => parseToolArguments('{"city": "Par'));
    expect(classifyError(thrown).type).toBe('invalid_input');
    expect(failureText(thrown)).toMatch(/Fix the arguments/);
  });
});

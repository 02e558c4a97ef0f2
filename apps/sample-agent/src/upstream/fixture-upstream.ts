import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  isRoutePlan,
  type RoutePlan,
  type UpstreamBehaviour,
  type UpstreamRoute,
} from './upstream-behaviour.js';
import { PaymentsApi, type Payment } from './payments.js';
import { RoutePlans, RUN_ID_HEADER } from './route-plans.js';
import { pageFor, searchResultsFor } from './upstream-content.js';

/** A running fixture upstream. */
export interface FixtureUpstream {
  /** Its root, e.g. `http://127.0.0.1:43121`. */
  readonly url: string;
  /**
   * Replaces a route's plan; the default plan answers every request `ok`. With `run`, the plan
   * is that run's own: only requests naming the run in `X-Run-Id` play it.
   */
  plan(route: UpstreamRoute, plan: RoutePlan, run?: string): void;
  /** Drops the plans of `run` (its run ended). */
  forgetRun(run: string): void;
  /** Every route back to `ok`, every run's plans dropped. */
  reset(): void;
  /** Requests served so far, by route. */
  readonly hits: Readonly<Record<UpstreamRoute, number>>;
  /** The payments made through `POST /payments` (also `GET /__payments`): one per effect. */
  readonly payments: readonly Payment[];
  /** `POST /payments` requests received, repeats with a known key included. */
  readonly paymentRequests: number;
  close(): Promise<void>;
}

/** Where the fixture upstream listens; port 0 (the default) picks a free one. */
export interface FixtureUpstreamOptions {
  readonly port?: number;
  readonly host?: string;
  /** Hears of each payment as it takes effect, before `POST /payments` answers. */
  readonly onPayment?: (payment: Payment) => void;
  /** How long `POST /payments` takes to answer (default `PAYMENT_LATENCY_MS`, 1 s). */
  readonly paymentLatencyMs?: number;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function htmlErrorPage(): string {
  return (
    '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>' +
    '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>'
  );
}

function answer(route: UpstreamRoute, url: URL): unknown {
  return route === 'search'
    ? searchResultsFor(url.searchParams.get('q') ?? '')
    : pageFor(url.searchParams.get('url') ?? '');
}

/** Plays one behaviour; resolves when the response is over (or the socket destroyed). */
async function play(
  behaviour: UpstreamBehaviour,
  route: UpstreamRoute,
  url: URL,
  response: ServerResponse,
): Promise<void> {
  switch (behaviour.kind) {
    case 'ok':
      return sendJson(response, 200, answer(route, url));
    case 'rate_limited': {
      const seconds = behaviour.retryAfterSeconds ?? 1;
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': `${seconds}` });
      response.end(JSON.stringify({ error: 'Too many requests, slow down.' }));
      return;
    }
    case 'unavailable':
      return sendJson(response, 503, { error: 'Service unavailable.' });
    case 'slow':
      await new Promise<void>((resolve) => {
        const socket = response.socket;
        // The client gave up (its timeout): stop waiting.
        const gaveUp = () => {
          clearTimeout(timer);
          resolve();
        };
        // A kept-alive socket serves many requests: each takes its listener off again.
        const timer = setTimeout(() => {
          socket?.off('close', gaveUp);
          resolve();
        }, behaviour.delayMs ?? 2_000);
        socket?.once('close', gaveUp);
      });
      if (!response.destroyed) sendJson(response, 200, answer(route, url));
      return;
    case 'reset': {
      const body = JSON.stringify(answer(route, url));
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': `${Buffer.byteLength(body)}`,
      });
      response.write(body.slice(0, Math.floor(body.length / 2)));
      setTimeout(() => response.socket?.destroy(), 5);
      return;
    }
    case 'html_error':
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(htmlErrorPage());
      return;
  }
}

/** The run a request names in `X-Run-Id`, if any. */
function runOf(request: IncomingMessage): string | undefined {
  const header = request.headers[RUN_ID_HEADER];
  const run = Array.isArray(header) ? header[0] : header;
  return run === '' ? undefined : run;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/**
 * An HTTP server on 127.0.0.1 standing in for the web: `GET /search?q=` and `GET /page?url=`
 * answer JSON, or misbehave as each route's plan says (429 with `Retry-After`, 503, slow
 * answers, connections reset mid-response, HTML error pages). `POST /payments` makes a payment,
 * honouring `Idempotency-Key` (see {@link PaymentsApi}); `GET /payments?invoice=` lists an
 * invoice's payments. Plans are switched in process with
 * `plan()` or over HTTP with `PUT /__plan/{route}` and a {@link RoutePlan} body. A plan set for
 * a run (`plan(route, plan, run)`, or the PUT with an `X-Run-Id` header) is played to that
 * run's requests only (those with the same `X-Run-Id`), so runs started together each meet
 * their own.
 *
 * @example
 * const upstream = await startFixtureUpstream();
 * upstream.plan('search', { next: [{ kind: 'rate_limited', retryAfterSeconds: 1 }] }, runId);
 */
export async function startFixtureUpstream(
  options: FixtureUpstreamOptions = {},
): Promise<FixtureUpstream> {
  const plans = new RoutePlans();
  const sockets = new Set<Socket>();
  const payments = new PaymentsApi(options.paymentLatencyMs, options.onPayment);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://upstream');
    const [, first, second] = url.pathname.split('/');
    if (request.method === 'PUT' && first === '__plan' && RoutePlans.isRoute(second)) {
      const plan: unknown = JSON.parse((await readBody(request)) || '{}');
      if (!isRoutePlan(plan)) return sendJson(response, 400, { error: 'Not a route plan.' });
      plans.set(second, plan, runOf(request));
      return sendJson(response, 200, plan);
    }
    if (request.method === 'POST' && first === 'payments' && second === undefined) {
      return payments.handle(request, await readBody(request), response);
    }
    if (request.method === 'GET' && first === 'payments' && second === undefined) {
      const invoice = url.searchParams.get('invoice') ?? '';
      return sendJson(response, 200, { invoice, payments: payments.forInvoice(invoice) });
    }
    if (request.method === 'GET' && first === '__payments' && second === undefined) {
      return sendJson(response, 200, { requests: payments.requests, payments: payments.payments });
    }
    if (request.method === 'GET' && RoutePlans.isRoute(first) && second === undefined) {
      return play(plans.take(first, runOf(request)), first, url, response);
    }
    sendJson(response, 404, { error: `No route ${request.method} ${url.pathname}.` });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 400, { error: String(error) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;

  return {
    url: `http://${address.address}:${address.port}`,
    plan: (route, plan, run) => plans.set(route, plan, run),
    forgetRun: (run) => plans.forget(run),
    reset: () => plans.reset(),
    get hits() {
      return { search: plans.hits('search'), page: plans.hits('page') };
    },
    payments: payments.payments,
    get paymentRequests() {
      return payments.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

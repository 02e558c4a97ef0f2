/**
 * The rate-limited upstream's server, in a child process of its own (limited-upstream.ts), so
 * the clients' work never delays its decisions or answers. Started with its kind, its limits
 * (`<limit>[,<limit>...]` changing every `phaseMs`) and its answer time; sends its port, then
 * its counts per second when asked.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamCounter, type UpstreamKind } from './upstream-counter.js';

const [kind, limitsArgument, phaseMsArgument, latencyMsArgument] = process.argv.slice(2);
const limits = String(limitsArgument).split(',').map(Number);
const phaseMs = Number(phaseMsArgument);
const latencyMs = Number(latencyMsArgument);
const counter = new UpstreamCounter(kind as UpstreamKind);
const acceptedPerSecond: number[] = [];
const refusedPerSecond: number[] = [];
let started: number | undefined;

const server = createServer((request, response) => {
  request.resume();
  started ??= performance.now();
  const elapsed = performance.now() - started;
  const limit = limits[Math.min(limits.length - 1, Math.floor(elapsed / phaseMs))] as number;
  const { ok, headers } = counter.decide(elapsed, limit);
  const perSecond = ok ? acceptedPerSecond : refusedPerSecond;
  const second = Math.floor(elapsed / 1000);
  perSecond[second] = (perSecond[second] ?? 0) + 1;
  setTimeout(() => {
    response.writeHead(ok ? 200 : 429, { 'content-type': 'application/json', ...headers });
    response.end(ok ? '{"ok":true}' : '{"error":"rate limited"}');
  }, latencyMs);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ acceptedPerSecond, refusedPerSecond });
  else if (message === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

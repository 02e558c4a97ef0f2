import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createServer } from './http/create-server.js';
import { createRunStore, describeStore } from './persistence/create-run-store.js';
import { ensurePortFree } from './process/ensure-port-free.js';
import { explainStartupError } from './process/explain-startup-error.js';
import { readServiceSettings } from './process/service-settings.js';
import { stopGracefullyOnSignals } from './process/stop-gracefully.js';
import { describeQueue, queueSettingsFrom } from './queue/queue-settings.js';
import { startTelemetry } from './telemetry/start-telemetry.js';

// `npm run serve` / `npm run start:prod`: the reference service on 127.0.0.1:${PORT:-3000}.
// Runs are kept in SQLite under ./data (TOOLSHIELD_DATA_DIR), in PostgreSQL with DATABASE_URL.
// Runs a previous process left unfinished are resumed at startup. A startup failure is one
// line on stderr and exit code 1; SIGTERM and SIGINT stop it gracefully (exit code 0).
// With REDIS_URL (and a shared PostgreSQL), runs are jobs on a BullMQ queue that every
// instance works (src/queue/). Metrics at /metrics (PROMETHEUS=off: none), OTLP with
// OTEL_EXPORTER_OTLP_ENDPOINT.
const log = (line: string) => console.error(`toolshield sample agent: ${line}`);
let port = 3_000;
try {
  const settings = readServiceSettings(process.env);
  port = settings.port;
  const storePlace = describeStore(process.env);
  const queue = queueSettingsFrom(process.env);
  await ensurePortFree(port, '127.0.0.1');
  const telemetry = startTelemetry(process.env);
  const store = await createRunStore(process.env);
  try {
    const app = await createServer({ store, env: process.env, telemetry });
    await app.listen(port, '127.0.0.1');
    const address = app.getHttpServer().address() as AddressInfo;
    console.log(
      `toolshield sample agent listening on http://127.0.0.1:${address.port} (dashboard at /)`,
    );
    console.log(`runs kept ${storePlace}`);
    console.log(describeQueue(queue));
    stopGracefullyOnSignals({ app, store, telemetry, graceMs: settings.shutdownGraceMs, log });
  } catch (error) {
    await store.close().catch(() => undefined);
    await telemetry.shutdown().catch(() => undefined);
    throw error;
  }
} catch (error) {
  let place = 'the run store';
  try {
    place = describeStore(process.env);
  } catch {
    // The DATABASE_URL itself is what failed: its own message says so.
  }
  log(explainStartupError(error, { port, store: place }));
  process.exit(1);
}

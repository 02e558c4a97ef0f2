import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createServer } from './http/create-server.js';
import { createRunStore, describeStore } from './persistence/create-run-store.js';
import { startTelemetry } from './telemetry/start-telemetry.js';

// `npm run serve`: the reference service on 127.0.0.1:${PORT:-3000}. Runs are kept in SQLite
// under ./data (TOOLSHIELD_DATA_DIR), in PostgreSQL with DATABASE_URL. Runs a previous process
// left unfinished are resumed at startup.
// Metrics at /metrics (PROMETHEUS=off: none), OTLP with OTEL_EXPORTER_OTLP_ENDPOINT.
const telemetry = startTelemetry(process.env);
const store = createRunStore(process.env);
const app = await createServer({ store, env: process.env, telemetry });
await app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1');
const { port } = app.getHttpServer().address() as AddressInfo;
console.log(`toolshield sample agent listening on http://127.0.0.1:${port} (dashboard at /)`);
console.log(`runs kept ${describeStore(process.env)}`);

async function stop(): Promise<void> {
  await app.close();
  await store.close();
  await telemetry.shutdown();
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

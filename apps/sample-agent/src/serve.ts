import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createServer } from './http/create-server.js';
import { createRunStore, describeStore } from './persistence/create-run-store.js';
import { describeQueue, queueSettingsFrom } from './queue/queue-settings.js';

// `npm run serve`: the reference service on 127.0.0.1:${PORT:-3000}. Runs are kept in SQLite
// under ./data (TOOLSHIELD_DATA_DIR), in PostgreSQL with DATABASE_URL. Runs a previous process
// left unfinished are resumed at startup. With REDIS_URL (and a shared PostgreSQL), runs are
// jobs on a BullMQ queue that every instance works (src/queue/).
let queue;
try {
  queue = queueSettingsFrom(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const store = createRunStore(process.env);
const app = await createServer({ store, env: process.env });
await app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1');
const { port } = app.getHttpServer().address() as AddressInfo;
console.log(`toolshield sample agent listening on http://127.0.0.1:${port} (dashboard at /)`);
console.log(`runs kept ${describeStore(process.env)}`);
console.log(describeQueue(queue));

async function stop(): Promise<void> {
  await app.close();
  await store.close();
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

import 'reflect-metadata';
import { createServer } from './http/create-server.js';
import { InMemoryRunStore } from './runs/in-memory-run-store.js';

// `npm run serve`: the reference service on 127.0.0.1:${PORT:-3000}.
const port = Number(process.env['PORT'] ?? 3000);
const app = await createServer({ store: new InMemoryRunStore(), env: process.env });
await app.listen(port, '127.0.0.1');
console.log(`toolshield sample agent listening on http://127.0.0.1:${port} (dashboard at /)`);

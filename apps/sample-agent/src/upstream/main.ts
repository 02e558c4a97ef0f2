import { startFixtureUpstream } from './fixture-upstream.js';

// The fixture upstream on its own: `node dist/upstream/main.js` (PORT, default 4010).
const upstream = await startFixtureUpstream({ port: Number(process.env['PORT'] ?? 4010) });
console.log(`fixture upstream listening on ${upstream.url}`);
console.log(
  "routes: GET /search?q=..., GET /page?url=..., PUT /__plan/{search|page} (with X-Run-Id: that run's plan)",
);
const stop = () => void upstream.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

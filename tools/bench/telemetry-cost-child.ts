/**
 * One configuration of the telemetry-cost benchmark alone in its process (`off` or
 * `prometheus`), as a deployed service runs one application: several applications in one
 * process share the executor's code, which then serves both paths. Prints the nanoseconds per
 * call of each round as JSON; app-telemetry.ts starts it and compares.
 */
import { prometheusMetrics, REQUEST, telemetryApp } from './telemetry-cost-app.js';

const CALLS = 200_000;
const ROUNDS = 5;

const config = process.argv[2];
if (config !== 'off' && config !== 'prometheus') throw new Error('usage: off | prometheus');
const metrics = config === 'prometheus' ? prometheusMetrics() : undefined;
const { app, executor } = await telemetryApp(
  metrics ? { meterProvider: metrics.meterProvider } : {},
  metrics !== undefined,
);
const perCall: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await executor.execute(REQUEST);
  perCall.push(Number(process.hrtime.bigint() - started) / CALLS);
}
await app.close();
await metrics?.meterProvider.shutdown();
process.stdout.write(`${JSON.stringify(perCall)}\n`);

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ModelSelector } from './agent/select-model.js';
import { runDemo } from './demo/run-demo.js';
import { InMemoryRunStore } from './runs/in-memory-run-store.js';
import { ServerModule } from './server.module.js';

// `npm start`: the demo. Every scenario as an agent run with chaos on, the trace printed live.
const models = new ModelSelector(process.env);
const app = await NestFactory.createApplicationContext(
  ServerModule.forRoot({
    store: new InMemoryRunStore(),
    models,
    chaos: process.env['CHAOS'] !== 'off',
  }),
  { logger: ['error', 'warn'] },
);
try {
  const { asExpected } = await runDemo(app, (line) => console.log(line));
  const scripted = !process.env['TOOLSHIELD_MODEL'];
  process.exitCode = scripted && !asExpected ? 1 : 0;
} finally {
  await app.close();
}

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { runDemo } from './agent/demo.js';
import { AppModule } from './app.module.js';

const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
try {
  const { result, transcript } = await runDemo(app, process.env);
  console.log(transcript);
  process.exitCode = result.status === 'error' ? 1 : 0;
} finally {
  await app.close();
}

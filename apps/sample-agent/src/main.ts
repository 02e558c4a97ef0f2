import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { renderFailureText } from '@toolshield/core';
import { ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { AppModule } from './app.module.js';

const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
const registry = app.get(ToolRegistry);
const executor = app.get(ToolExecutor);

console.log(`toolshield sample agent: ${registry.names().length} tool(s) registered`);
for (const definition of registry.definitions()) {
  console.log(`  - ${definition.name}: ${definition.description}`);
}

const demoCalls = [
  { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { id: 'call_2', name: 'get_wether', arguments: '{"city":"Paris"}' },
  { id: 'call_3', name: 'get_weather', arguments: '{"city": "Par' },
  { id: 'call_4', name: 'get_weather', arguments: '{"city":"Atlantis"}' },
];
for (const call of demoCalls) {
  const outcome = await executor.execute(call);
  const shown = outcome.success ? JSON.stringify(outcome.output) : renderFailureText(outcome);
  console.log(`\n> ${call.name}(${call.arguments})\n${shown}`);
}

await app.close();

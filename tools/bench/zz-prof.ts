import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool, ToolArgs, ToolCircuitBreakers, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
@Injectable()
class T {
  @Tool({ name: 'down', description: 'x', breaker: { resetTimeoutMs: 3_600_000 } })
  async down(@ToolArgs() _a: unknown) { return 1; }
  @Tool({ name: 'buggy', description: 'x' })
  async buggy(@ToolArgs() _a: unknown): Promise<never> { throw new Error('Upstream said no (api_key=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e)'); }
}
@Module({ imports: [ToolShieldModule.forRoot({})], providers: [T] })
class M {}
const app = await NestFactory.createApplicationContext(M, { logger: false });
await app.init();
const ex = app.get(ToolExecutor); const br = app.get(ToolCircuitBreakers);
const name = process.argv[2] ?? 'down';
await ex.execute({ id: 'a', name, arguments: '{"city":"Paris"}' });
if (name === 'down') await br.open('down');
const b = br.find('buggy');
const t0 = performance.now(); const N = 200_000;
for (let i = 0; i < N; i++) { if (i % 10 === 0) b?.close(); await ex.execute({ id: 'call_bench', name, arguments: '{"city":"Paris"}' }); }
console.log(name, ((performance.now() - t0) * 1000 / N).toFixed(2), 'µs/call', JSON.stringify(await ex.execute({ id: 'x', name, arguments: '{}' })));
await app.close();

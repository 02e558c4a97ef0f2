/**
 * Smoke programs of our own (not from a README): a @toolshield/redis setup in two app
 * instances of one process, and runtime fault injection from the chaos main entry with no
 * @nestjs/testing installed.
 */

/**
 * The redis README's module setup in two app instances of one process: the first opens the
 * tool's breaker, the second must follow (pub/sub) and fail the tool's next call fast.
 */
export function redisSharedBreakerProgram() {
  return `import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool, ToolCircuitBreakers, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { RedisBreakerStore, RedisRateLimitStore, ToolShieldRedisModule } from '@toolshield/redis';

@Injectable()
class WeatherTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.' })
  getWeather(): Promise<string> {
    return Promise.resolve('sunny');
  }
}

@Module({
  imports: [
    ToolShieldModule.forRootAsync({
      imports: [
        ToolShieldRedisModule.forRoot({ connection: process.env.REDIS_URL!, keyPrefix: 'registry-smoke:' }),
      ],
      inject: [RedisBreakerStore, RedisRateLimitStore],
      useFactory: (breakerStore: RedisBreakerStore, rateLimitStore: RedisRateLimitStore) => ({
        breakerStore,
        rateLimitStore,
      }),
    }),
  ],
  providers: [WeatherTools],
})
class AppModule {}

const call = { id: 'call_1', name: 'get_weather', arguments: {} };
const instances = await Promise.all([1, 2].map(() => NestFactory.createApplicationContext(AppModule, { logger: false })));
const [first, second] = instances;
for (const app of instances) await app.get(ToolExecutor).execute(call);
const until = async (check: () => boolean) => {
  const start = Date.now();
  while (!check() && Date.now() - start < 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
  return Date.now() - start;
};
await until(() => instances.every((app) => app.get(RedisBreakerStore).health().status === 'shared'));
const health = instances.map((app) => app.get(RedisBreakerStore).health().status);
await first.get(ToolCircuitBreakers).open('get_weather');
const followedMs = await until(() => second.get(ToolCircuitBreakers).find('get_weather')?.state === 'open');
const followed = second.get(ToolCircuitBreakers).find('get_weather')?.state;
const outcome = await second.get(ToolExecutor).execute({ ...call, id: 'call_2' });
console.log(JSON.stringify({ health, followed, followedMs, outcome }));
await Promise.all(instances.map((app) => app.close()));
`;
}

/** Runtime fault injection from the main entry, which must load without @nestjs/testing. */
export function chaosRuntimeProgram() {
  return `import { isChaosInjected, networkError, withChaos, ChaosModule } from '@toolshield/chaos';

void ChaosModule;
const lookup = withChaos(async (args: { sku: string }) => args.sku, [{ fault: networkError('ECONNRESET') }], {
  enabled: true,
  seed: 1,
});
try {
  await lookup({ sku: 'A' });
  console.log('chaos injected: false');
} catch (error) {
  console.log(\`chaos injected: \${isChaosInjected(error)}\`);
}
`;
}

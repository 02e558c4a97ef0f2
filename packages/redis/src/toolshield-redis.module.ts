import {
  ConfigurableModuleBuilder,
  Inject,
  type ConfigurableModuleCls,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { assertOptions } from '@toolshield/core/internal';
import { reconnectDelay } from './reconnect-delay.js';
import { RedisBreakerStore } from './redis-breaker-store.js';
import { REDIS_MODULE_OPTIONS_RULE, type ToolShieldRedisModuleOptions } from './redis-options.js';
import { RedisRateLimitStore } from './redis-rate-limit-store.js';
import { RedisRetryBudgetStore } from './redis-retry-budget-store.js';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDIS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<ToolShieldRedisModuleOptions>({ moduleName: 'ToolShieldRedis' })
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false }, (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }))
    .build();

/**
 * What `ToolShieldRedisModule` extends: Nest's generated `forRoot` and `forRootAsync` (with
 * `isGlobal`). Use `ToolShieldRedisModule`, not this.
 *
 * @publicApi
 */
export const ToolShieldRedisModuleBase: ConfigurableModuleCls<
  ToolShieldRedisModuleOptions,
  'forRoot',
  'create',
  { isGlobal: boolean }
> = ConfigurableModuleClass;

/** The module's own client, when it was given a URL. */
const OWNED_CONNECTION = Symbol('ToolShieldRedisOwnedConnection');

/** What both stores are built from: the connection, this instance's id and the shared options. */
interface StoreBasis {
  readonly connection: Redis;
  readonly instanceId: string;
  readonly keyPrefix?: string;
  readonly commandTimeoutMs?: number;
}
const STORE_BASIS = Symbol('ToolShieldRedisStoreBasis');

/**
 * Provides a {@link RedisBreakerStore}, a {@link RedisRateLimitStore} and a
 * {@link RedisRetryBudgetStore} to hand to `ToolShieldModule` as `breakerStore`,
 * `rateLimitStore` and `retryBudgetStore`, so every instance of the application shares its
 * circuit breakers, its rate-limit budgets and its retry budgets.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     ToolShieldModule.forRootAsync({
 *       imports: [ToolShieldRedisModule.forRoot({ connection: process.env.REDIS_URL!, keyPrefix: 'agents:' })],
 *       inject: [RedisBreakerStore, RedisRateLimitStore, RedisRetryBudgetStore],
 *       useFactory: (
 *         breakerStore: RedisBreakerStore,
 *         rateLimitStore: RedisRateLimitStore,
 *         retryBudgetStore: RedisRetryBudgetStore,
 *       ) => ({ breakerStore, rateLimitStore, retryBudgetStore }),
 *     }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({
  providers: [
    {
      provide: OWNED_CONNECTION,
      inject: [REDIS_MODULE_OPTIONS],
      useFactory: (options: ToolShieldRedisModuleOptions): Redis | undefined => {
        assertOptions(REDIS_MODULE_OPTIONS_RULE, options, 'ToolShieldRedisModule options');
        return typeof options.connection === 'string'
          ? new Redis(options.connection, { retryStrategy: reconnectDelay })
          : undefined;
      },
    },
    {
      provide: STORE_BASIS,
      inject: [REDIS_MODULE_OPTIONS, OWNED_CONNECTION],
      useFactory: (
        options: ToolShieldRedisModuleOptions,
        owned: Redis | undefined,
      ): StoreBasis => ({
        connection: owned ?? (options.connection as Redis),
        instanceId: randomUUID(),
        ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
        ...(options.commandTimeoutMs === undefined
          ? {}
          : { commandTimeoutMs: options.commandTimeoutMs }),
      }),
    },
    {
      provide: RedisBreakerStore,
      inject: [REDIS_MODULE_OPTIONS, STORE_BASIS],
      useFactory: (options: ToolShieldRedisModuleOptions, basis: StoreBasis) =>
        new RedisBreakerStore({
          ...basis,
          ...(options.syncIntervalMs === undefined
            ? {}
            : { syncIntervalMs: options.syncIntervalMs }),
          ...(options.trialLeaseMs === undefined ? {} : { trialLeaseMs: options.trialLeaseMs }),
        }),
    },
    {
      provide: RedisRateLimitStore,
      inject: [REDIS_MODULE_OPTIONS, STORE_BASIS],
      useFactory: (options: ToolShieldRedisModuleOptions, basis: StoreBasis) =>
        new RedisRateLimitStore({
          ...basis,
          ...(options.minInstances === undefined ? {} : { minInstances: options.minInstances }),
        }),
    },
    {
      provide: RedisRetryBudgetStore,
      inject: [STORE_BASIS],
      useFactory: (basis: StoreBasis) => new RedisRetryBudgetStore(basis),
    },
  ],
  exports: [RedisBreakerStore, RedisRateLimitStore, RedisRetryBudgetStore],
})
export class ToolShieldRedisModule
  extends ToolShieldRedisModuleBase
  implements OnApplicationShutdown
{
  /** Nest injects the stores. @internal */
  constructor(
    private readonly breakers: RedisBreakerStore,
    private readonly rateLimits: RedisRateLimitStore,
    private readonly retryBudgets: RedisRetryBudgetStore,
    @Inject(OWNED_CONNECTION) private readonly owned: Redis | undefined,
  ) {
    super();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.breakers.close(), this.rateLimits.close(), this.retryBudgets.close()]);
    this.owned?.disconnect();
  }
}

import {
  ConfigurableModuleBuilder,
  Inject,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { RedisBreakerStore } from './redis-breaker-store.js';

/** Options of {@link ToolShieldRedisModule}. @publicApi */
export interface ToolShieldRedisModuleOptions {
  /** An ioredis client (kept open on shutdown: it is yours) or a `redis://` URL (closed on shutdown). */
  readonly connection: Redis | string;
  /** Prefix of every key and channel, one per application (default `toolshield:`). */
  readonly keyPrefix?: string;
  /** Longest wait for any Redis command (default 250 ms). */
  readonly commandTimeoutMs?: number;
  /** How often counts are exchanged (default 25 ms). */
  readonly syncIntervalMs?: number;
}

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDIS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<ToolShieldRedisModuleOptions>({ moduleName: 'ToolShieldRedis' })
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false }, (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }))
    .build();

/** The module's own client, when it was given a URL. */
const OWNED_CONNECTION = Symbol('ToolShieldRedisOwnedConnection');

/**
 * Provides a {@link RedisBreakerStore} to hand to `ToolShieldModule` as `breakerStore`, so
 * every instance of the application shares its circuit breakers.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     ToolShieldModule.forRootAsync({
 *       imports: [ToolShieldRedisModule.forRoot({ connection: process.env.REDIS_URL!, keyPrefix: 'agents:' })],
 *       inject: [RedisBreakerStore],
 *       useFactory: (breakerStore: RedisBreakerStore) => ({ breakerStore }),
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
      useFactory: (options: ToolShieldRedisModuleOptions): Redis | undefined =>
        typeof options.connection === 'string' ? new Redis(options.connection) : undefined,
    },
    {
      provide: RedisBreakerStore,
      inject: [REDIS_MODULE_OPTIONS, OWNED_CONNECTION],
      useFactory: (options: ToolShieldRedisModuleOptions, owned: Redis | undefined) =>
        new RedisBreakerStore({
          connection: owned ?? (options.connection as Redis),
          ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
          ...(options.commandTimeoutMs === undefined
            ? {}
            : { commandTimeoutMs: options.commandTimeoutMs }),
          ...(options.syncIntervalMs === undefined
            ? {}
            : { syncIntervalMs: options.syncIntervalMs }),
        }),
    },
  ],
  exports: [RedisBreakerStore],
})
export class ToolShieldRedisModule
  extends ConfigurableModuleClass
  implements OnApplicationShutdown
{
  constructor(
    private readonly store: RedisBreakerStore,
    @Inject(OWNED_CONNECTION) private readonly owned: Redis | undefined,
  ) {
    super();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    this.owned?.disconnect();
  }
}

import { createHash } from 'node:crypto';
import type { ToolCacheEntry, ToolCacheStore } from '@toolshield/core';
import {
  assertOptions,
  func,
  milliseconds,
  objectOf,
  required,
  text,
  withMethods,
} from '@toolshield/core/internal';
import type { RedisStoreOptions } from './redis-link.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link RedisToolCacheStore}. @publicApi */
export type RedisToolCacheStoreOptions = Pick<
  RedisStoreOptions,
  'connection' | 'keyPrefix' | 'commandTimeoutMs' | 'onError'
>;

const OPTIONS_RULE = objectOf<RedisToolCacheStoreOptions>({
  connection: required(withMethods('an ioredis client', ['get', 'set'])),
  keyPrefix: text(),
  commandTimeoutMs: milliseconds({ positive: true }),
  onError: func(),
});

/**
 * A `ToolCacheStore` every instance of the application shares through Redis: an answer one
 * instance cached answers the same call on any other. Each entry is one Redis string (JSON of
 * the output and when it was stored) under `{prefix}cache:{sha256 of the key}`, expiring with
 * its `keepMs`. A command that fails or takes longer than `commandTimeoutMs` rejects, which
 * the cache takes as a miss (or a write skipped): Redis being away costs calls their cache,
 * never their answer.
 *
 * @example
 * ```ts
 * ToolShieldModule.forRoot({ cacheStore: new RedisToolCacheStore({ connection: new Redis(process.env.REDIS_URL!) }) });
 * ```
 * @publicApi
 */
export class RedisToolCacheStore implements ToolCacheStore {
  private readonly prefix: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: RedisToolCacheStoreOptions) {
    assertOptions(OPTIONS_RULE, options, 'RedisToolCacheStore options');
    this.prefix = `${options.keyPrefix ?? 'toolshield:'}cache:`;
    this.timeoutMs = options.commandTimeoutMs ?? 250;
  }

  async get(key: string): Promise<ToolCacheEntry | undefined> {
    const stored = await this.command(this.options.connection.get(this.redisKey(key)));
    if (stored === null) return undefined;
    const { v: value, t: storedAt } = JSON.parse(stored) as { v: unknown; t: number };
    return { value, storedAt };
  }

  async set(key: string, entry: ToolCacheEntry, keepMs: number): Promise<void> {
    const stored = JSON.stringify({ v: entry.value, t: entry.storedAt });
    const ttl = Math.max(1, Math.ceil(keepMs));
    await this.command(this.options.connection.set(this.redisKey(key), stored, 'PX', ttl));
  }

  private redisKey(key: string): string {
    return this.prefix + createHash('sha256').update(key).digest('hex');
  }

  private async command<T>(work: Promise<T>): Promise<T> {
    try {
      return await withTimeout(work, this.timeoutMs);
    } catch (error) {
      this.options.onError?.(error);
      throw error;
    }
  }
}

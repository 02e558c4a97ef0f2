import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { reconnectDelay } from './reconnect-delay.js';
import { withTimeout } from './with-timeout.js';

/** Whether an instance shares its state on Redis now. @publicApi */
export interface RedisSharingHealth {
  /** `shared` while Redis answers; `degraded` while the instance decides on local state alone. */
  readonly status: 'shared' | 'degraded';
  /** The last Redis failure, while degraded. */
  readonly lastError?: string;
}

/** What every store of this package is given. @publicApi */
export interface RedisStoreOptions {
  /** The ioredis client to use; a second connection is duplicated from it for pub/sub. */
  readonly connection: Redis;
  /** Prefix of every key and of the channel, one per application (default `toolshield:`). */
  readonly keyPrefix?: string;
  /** Longest wait for any Redis command before the instance goes on locally (default 250). */
  readonly commandTimeoutMs?: number;
  /** This instance's id in the shared state (default: a random UUID). */
  readonly instanceId?: string;
  /** Told about every Redis failure (the instance keeps working on local state). */
  readonly onError?: (error: unknown) => void;
}

/** What a store does with its channel. */
export interface RedisLinkListener {
  /** Told every message on the channel. */
  readonly onMessage: (message: string) => void;
  /** Told when Redis answers again (command or pub/sub connection): time to rejoin. */
  readonly onReady: () => void;
}

/**
 * A store's two connections to Redis (commands, and a duplicate subscribed to its channel),
 * with the timeout every command races and the health both make: what the shared stores of
 * this package have in common.
 */
export class RedisLink {
  readonly redis: Redis;
  readonly prefix: string;
  /** `{prefix}{channel name}`: where the store's instances publish their changes. */
  readonly channel: string;
  readonly instanceId: string;
  private readonly subscriber: Redis;
  private readonly timeoutMs: number;
  private lastError?: string;
  private closed = false;
  private everReady = false;
  /** Whether the subscriber holds the channel now (lost with its connection, taken again on ready). */
  private subscribed = false;

  constructor(
    private readonly options: RedisStoreOptions,
    channelName: string,
    listener: RedisLinkListener,
  ) {
    this.redis = options.connection;
    this.prefix = options.keyPrefix ?? 'toolshield:';
    this.channel = `${this.prefix}${channelName}`;
    this.instanceId = options.instanceId ?? randomUUID();
    this.timeoutMs = options.commandTimeoutMs ?? 250;
    // The pub/sub connection is ours: it reconnects on a short, capped backoff whatever the
    // caller's client does, and is the probe that wakes that client when Redis answers again.
    this.subscriber = this.redis.duplicate({ retryStrategy: reconnectDelay });
    this.subscriber.on('message', (_channel: string, message: string) =>
      listener.onMessage(message),
    );
    this.subscriber.on('error', (error: unknown) => this.failed(error));
    this.subscriber.on('close', () => (this.subscribed = false));
    // The channel is taken on every connection (a SUBSCRIBE queued while Redis was down at
    // start is given up by the client); changes published while the subscriber was away are
    // missed, so the store reads the shared state again once it holds the channel.
    this.subscriber.on('ready', () => {
      this.wake();
      void this.subscribe(listener);
    });
    this.redis.on('ready', () => {
      this.everReady = true;
      listener.onReady();
    });
    this.redis.on('error', (error: unknown) => this.failed(error));
    void this.subscribe(listener);
  }

  /** `degraded` while Redis is away or failing. */
  health(): RedisSharingHealth {
    if (this.closed) return { status: 'degraded', lastError: 'The store is closed' };
    const { status } = this.redis;
    if (
      status === 'ready' &&
      this.subscriber.status === 'ready' &&
      this.subscribed &&
      this.lastError === undefined
    )
      return { status: 'shared' };
    return { status: 'degraded', lastError: this.lastError ?? `Redis is ${status}` };
  }

  /** Whether commands may be sent now (the client is connected and the store open). */
  reachable(): boolean {
    return !this.closed && this.redis.status === 'ready';
  }

  /**
   * Whether the client is still making its first connection: commands sent now wait for it
   * (ioredis queues them), within the command timeout.
   */
  connecting(): boolean {
    const { status } = this.redis;
    return (
      !this.closed &&
      !this.everReady &&
      (status === 'wait' || status === 'connecting' || status === 'connect')
    );
  }

  /** `work`, or a rejection after the command timeout; a failure is recorded either way. */
  async command<T>(work: Promise<T>): Promise<T> {
    try {
      const value = await withTimeout(work, this.timeoutMs);
      this.lastError = undefined;
      return value;
    } catch (error) {
      this.failed(error);
      throw error;
    }
  }

  /** Records a Redis failure (health turns `degraded` until a command succeeds again). */
  failed(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
    this.options.onError?.(error);
  }

  /**
   * Redis answers the pub/sub connection again: a command connection still waiting out its
   * reconnect backoff (ioredis's default waits up to 5 s between attempts, and the caller's
   * client may wait longer) connects now, so the instance rejoins within the subscriber's
   * backoff of Redis coming back. A client its owner ended (`end`) is left alone.
   */
  private wake(): void {
    if (this.redis.status === 'reconnecting') this.redis.connect().catch(() => undefined);
  }

  private async subscribe(listener: RedisLinkListener): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
    } catch (error) {
      this.failed(error);
      return;
    }
    if (this.subscribed || this.closed) return;
    this.subscribed = true;
    listener.onReady();
  }

  /** Closes the pub/sub connection (once); the command connection stays the caller's. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscriber.disconnect();
  }
}

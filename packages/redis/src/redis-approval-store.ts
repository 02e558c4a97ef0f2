import type {
  ApprovalDecideResult,
  ApprovalDecision,
  ApprovalListFilter,
  ApprovalRecord,
  ApprovalStore,
} from '@toolshield/core/approvals';
import {
  assertOptions,
  func,
  milliseconds,
  objectOf,
  required,
  text,
  withMethods,
} from '@toolshield/core/internal';
import type { Redis } from 'ioredis';
import { LuaScript } from './lua-script.js';
import type { RedisStoreOptions } from './redis-link.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link RedisApprovalStore}. @publicApi */
export interface RedisApprovalStoreOptions extends Pick<
  RedisStoreOptions,
  'connection' | 'keyPrefix' | 'commandTimeoutMs' | 'onError'
> {
  /** How long a record is kept after it expires, decided or not, in ms; default 7 days. */
  readonly retainMs?: number;
}

const OPTIONS_RULE = objectOf<RedisApprovalStoreOptions>({
  connection: required(withMethods('an ioredis client', ['hset', 'hgetall', 'evalsha'])),
  keyPrefix: text(),
  commandTimeoutMs: milliseconds({ positive: true }),
  onError: func(),
  retainMs: milliseconds(),
});

const DEFAULT_RETAIN_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The one transition, atomic in Redis: a `pending` record takes an approved/denied decision
 * while `now < expiresAt`, an `expired` one from `expiresAt` on (core's `settleApproval`).
 * ARGV: status, now, the decision's JSON. Returns 1 when this decision settled the record.
 */
const DECIDE = new LuaScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'pending' then return 0 end
local overdue = tonumber(ARGV[2]) >= tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if (ARGV[1] == 'expired') ~= overdue then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'decision', ARGV[3])
return 1
`);

/**
 * An `ApprovalStore` every instance of the application shares through Redis, so a person's
 * decision may reach any instance, and exactly one decision wins however many instances
 * receive one (a Lua script settles the record). Each record is a hash under
 * `{prefix}approval:{id}`: the record as JSON (kept as it came, never re-encoded), its status
 * and decision; a sorted set `{prefix}approvals` lists them by request time. Records go
 * `retainMs` after they expire (timed from their creation by Redis's clock: the
 * application's clock may be a virtual one).
 *
 * @example
 * ```ts
 * ToolShieldModule.forRoot({
 *   approvals: { store: new RedisApprovalStore({ connection: new Redis(process.env.REDIS_URL!) }) },
 * });
 * ```
 * @publicApi
 */
export class RedisApprovalStore implements ApprovalStore {
  private readonly prefix: string;
  private readonly index: string;
  private readonly timeoutMs: number;
  private readonly retainMs: number;
  private readonly redis: Redis;

  constructor(private readonly options: RedisApprovalStoreOptions) {
    assertOptions(OPTIONS_RULE, options, 'RedisApprovalStore options');
    const prefix = options.keyPrefix ?? 'toolshield:';
    this.prefix = `${prefix}approval:`;
    this.index = `${prefix}approvals`;
    this.timeoutMs = options.commandTimeoutMs ?? 1_000;
    this.retainMs = options.retainMs ?? DEFAULT_RETAIN_MS;
    this.redis = options.connection;
  }

  async create(record: ApprovalRecord): Promise<void> {
    const key = this.prefix + record.id;
    const { status: _status, decision: _decision, ...stored } = record;
    const created = await this.command(this.redis.hsetnx(key, 'record', JSON.stringify(stored)));
    if (created === 0) throw new Error(`Approval ${record.id} exists already.`);
    await this.command(
      this.redis
        .multi()
        .hset(key, 'status', record.status, 'expiresAt', String(record.expiresAt))
        .pexpire(key, Math.max(0, record.expiresAt - record.requestedAt) + this.retainMs)
        .zadd(this.index, record.requestedAt, record.id)
        .exec(),
    );
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return recordOf(await this.command(this.redis.hgetall(this.prefix + id)));
  }

  async list(filter: ApprovalListFilter = {}): Promise<readonly ApprovalRecord[]> {
    const ids = await this.command(this.redis.zrange(this.index, '0', '-1'));
    const found = await Promise.all(ids.map(async (id) => [id, await this.get(id)] as const));
    const gone = found.filter(([, record]) => record === undefined).map(([id]) => id);
    if (gone.length > 0) await this.command(this.redis.zrem(this.index, ...gone));
    return found.flatMap(([, record]) =>
      record !== undefined &&
      (filter.status === undefined || record.status === filter.status) &&
      (filter.conversationId === undefined || record.conversationId === filter.conversationId)
        ? [record]
        : [],
    );
  }

  async decide(id: string, decision: ApprovalDecision, now: number): Promise<ApprovalDecideResult> {
    const won = await this.command(
      DECIDE.run(this.redis, this.prefix + id, decision.status, now, JSON.stringify(decision)),
    );
    return { record: await this.get(id), won: won === 1 };
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

/** A record from its hash; `undefined` when there is none (or only half of one). */
function recordOf(hash: Record<string, string>): ApprovalRecord | undefined {
  if (hash['record'] === undefined || hash['status'] === undefined) return undefined;
  const stored = JSON.parse(hash['record']) as Omit<ApprovalRecord, 'status' | 'decision'>;
  return {
    ...stored,
    status: hash['status'] as ApprovalRecord['status'],
    ...(hash['decision'] === undefined
      ? {}
      : { decision: JSON.parse(hash['decision']) as ApprovalDecision }),
  };
}

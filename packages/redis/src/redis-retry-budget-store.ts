import { type RetryBudgetSettings, type RetryBudgetStore } from '@toolshield/core';
import { assertOptions, LocalRetryBudgetStore } from '@toolshield/core/internal';
import { LuaScript } from './lua-script.js';
import { RedisLink, type RedisSharingHealth } from './redis-link.js';
import {
  REDIS_RETRY_BUDGET_STORE_OPTIONS_RULE,
  type RedisRetryBudgetStoreOptions,
} from './redis-options.js';
import { RETRY_BUDGET_SCRIPT } from './retry-budget-script.js';

const script = new LuaScript(RETRY_BUDGET_SCRIPT);

/** One budget as this instance sees it. */
interface SharedBudget {
  readonly settings: RetryBudgetSettings;
  /** The balance on Redis at the last sync (this instance's flushed counts included). */
  balance: number;
  /** `performance.now()` of the last sync that answered; -Infinity before any. */
  syncedAt: number;
  /** Retries earned here (by calls and successes) since the last flush. */
  pendingEarned: number;
  /** Retries taken here since the last flush. */
  pendingRetries: number;
}

/**
 * A `RetryBudgetStore` shared by every instance of the application through Redis: each
 * instance counts what its calls and successes earned and the retries it took, adds them to
 * the key's balance on Redis every `syncIntervalMs` and reads the balance back, so the retries
 * every instance makes to an upstream come out of one balance. Decisions are taken without a
 * round trip: against the last balance read plus what this instance counted since. While
 * Redis is away (or its last answer is older than a few sync intervals), each instance decides
 * on its own balance, as the in-memory store does.
 *
 * @example
 * ```ts
 * const retryBudgetStore = new RedisRetryBudgetStore({ connection: new Redis(process.env.REDIS_URL!) });
 * ToolShieldModule.forRoot({ retryBudgetStore });
 * ```
 * @publicApi
 */
export class RedisRetryBudgetStore implements RetryBudgetStore {
  private readonly link: RedisLink;
  private readonly local = new LocalRetryBudgetStore();
  private readonly budgets = new Map<string, SharedBudget>();
  private readonly syncIntervalMs: number;
  private readonly timer: NodeJS.Timeout;
  /** The sync under way, if any. */
  private running: Promise<void> | undefined;

  constructor(options: RedisRetryBudgetStoreOptions) {
    assertOptions(REDIS_RETRY_BUDGET_STORE_OPTIONS_RULE, options, 'RedisRetryBudgetStore options');
    this.link = new RedisLink(options, 'retry-budgets', {
      onMessage: () => undefined,
      onReady: () => undefined,
    });
    this.syncIntervalMs = options.syncIntervalMs ?? 100;
    this.timer = setInterval(() => {
      if (this.running === undefined) void this.sync();
    }, this.syncIntervalMs);
    this.timer.unref();
  }

  recordCall(key: string, settings: RetryBudgetSettings, now: number): void {
    this.local.recordCall(key, settings, now);
    this.budget(key, settings).pendingEarned += settings.ratio;
  }

  recordSuccess(key: string, settings: RetryBudgetSettings, now: number): void {
    this.local.recordSuccess(key, settings, now);
    this.budget(key, settings).pendingEarned += settings.successRatio;
  }

  tryRetry(key: string, settings: RetryBudgetSettings, now: number): boolean | Promise<boolean> {
    const budget = this.budget(key, settings);
    if (this.fresh(budget)) return this.decideShared(key, budget, now);
    if (!this.link.reachable()) return this.decideLocal(key, budget, now);
    // Not read lately (a key this instance has not used for a while): read it now.
    return this.syncOne(key, budget).then(() =>
      this.fresh(budget) ? this.decideShared(key, budget, now) : this.decideLocal(key, budget, now),
    );
  }

  /** `shared` while Redis answers, `degraded` while each instance decides on its own. */
  health(): RedisSharingHealth {
    return this.link.health();
  }

  /**
   * Adds every budget's pending counts to Redis and reads the balances back. Runs every
   * `syncIntervalMs`; call it to sync now (tests, shutdown): it waits for a sync under way,
   * then runs one of its own.
   */
  async sync(): Promise<void> {
    while (this.running !== undefined) await this.running;
    if (!this.link.reachable()) return;
    const budgets = [...this.budgets];
    this.running = Promise.all(budgets.map(([key, budget]) => this.syncOne(key, budget))).then(
      () => {
        this.running = undefined;
      },
    );
    await this.running;
  }

  /** Flushes what is pending and stops syncing; the connection stays the caller's. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sync();
    this.link.close();
  }

  private async syncOne(key: string, budget: SharedBudget): Promise<void> {
    const earned = budget.pendingEarned;
    const retries = budget.pendingRetries;
    budget.pendingEarned = 0;
    budget.pendingRetries = 0;
    const { burst, minRetriesPerSecond } = budget.settings;
    try {
      const balance = await this.link.command(
        script.run(
          this.link.redis,
          `${this.link.prefix}retry-tokens:${key}`,
          burst,
          minRetriesPerSecond / 1_000,
          earned,
          retries,
        ),
      );
      budget.balance = Number(balance);
      budget.syncedAt = performance.now();
    } catch {
      // Not added: counted again with the next sync (the link recorded the failure).
      budget.pendingEarned += earned;
      budget.pendingRetries += retries;
    }
  }

  /** Against the balance on Redis and what this instance counted since. */
  private decideShared(key: string, budget: SharedBudget, now: number): boolean {
    const { burst } = budget.settings;
    const balance = Math.min(burst, budget.balance + budget.pendingEarned) - budget.pendingRetries;
    if (balance < 1) return false;
    budget.pendingRetries += 1;
    this.local.tryRetry(key, budget.settings, now); // keeps the local balance ready for an outage
    return true;
  }

  /** On this instance's own balance, as the in-memory store decides. */
  private decideLocal(key: string, budget: SharedBudget, now: number): boolean {
    const allowed = this.local.tryRetry(key, budget.settings, now);
    if (allowed) budget.pendingRetries += 1;
    return allowed;
  }

  /** Whether the last balance read is recent enough to decide on. */
  private fresh(budget: SharedBudget): boolean {
    return this.link.reachable() && performance.now() - budget.syncedAt <= this.syncIntervalMs * 5;
  }

  private budget(key: string, settings: RetryBudgetSettings): SharedBudget {
    let budget = this.budgets.get(key);
    if (budget === undefined) {
      budget = {
        settings,
        balance: settings.burst,
        syncedAt: Number.NEGATIVE_INFINITY,
        pendingEarned: 0,
        pendingRetries: 0,
      };
      this.budgets.set(key, budget);
    }
    return budget;
  }
}

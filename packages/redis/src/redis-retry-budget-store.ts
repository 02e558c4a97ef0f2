import {
  assertOptions,
  LocalRetryBudgetStore,
  retryAllowance,
  type RetryBudgetSettings,
  type RetryBudgetStore,
} from '@toolshield/core';
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
  /** The window's totals on Redis at the last sync (this instance's flushed counts included). */
  calls: number;
  retries: number;
  /** `performance.now()` of the last sync that answered; -Infinity before any. */
  syncedAt: number;
  /** Counted here since the last flush. */
  pendingCalls: number;
  pendingRetries: number;
}

/**
 * A `RetryBudgetStore` shared by every instance of the application through Redis: each
 * instance counts its calls and retries, adds them to the key's window on Redis every
 * `syncIntervalMs` and reads the window's totals back, so the retries every instance makes to
 * an upstream come out of one budget. Decisions are taken without a round trip: against the
 * last totals read plus what this instance counted since. While Redis is away (or its last
 * answer is older than a few sync intervals), each instance decides on its own counts, as the
 * in-memory store does.
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
    this.budget(key, settings).pendingCalls += 1;
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
   * Adds every budget's pending counts to Redis and reads the totals back. Runs every
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
    const calls = budget.pendingCalls;
    const retries = budget.pendingRetries;
    budget.pendingCalls = 0;
    budget.pendingRetries = 0;
    try {
      const [total, retried] = (await this.link.command(
        script.run(
          this.link.redis,
          `${this.link.prefix}retry-budget:${key}`,
          budget.settings.windowMs / 10,
          calls,
          retries,
        ),
      )) as [number, number];
      budget.calls = Number(total);
      budget.retries = Number(retried);
      budget.syncedAt = performance.now();
    } catch {
      // Not added: counted again with the next sync (the link recorded the failure).
      budget.pendingCalls += calls;
      budget.pendingRetries += retries;
    }
  }

  /** Against the window's totals on Redis and what this instance counted since. */
  private decideShared(key: string, budget: SharedBudget, now: number): boolean {
    const calls = budget.calls + budget.pendingCalls;
    const retries = budget.retries + budget.pendingRetries;
    if (retries + 1 > retryAllowance(budget.settings, calls)) return false;
    budget.pendingRetries += 1;
    this.local.tryRetry(key, budget.settings, now); // keeps the local window ready for an outage
    return true;
  }

  /** On this instance's own counts, as the in-memory store decides. */
  private decideLocal(key: string, budget: SharedBudget, now: number): boolean {
    const allowed = this.local.tryRetry(key, budget.settings, now);
    if (allowed) budget.pendingRetries += 1;
    return allowed;
  }

  /** Whether the last totals read are recent enough to decide on. */
  private fresh(budget: SharedBudget): boolean {
    return this.link.reachable() && performance.now() - budget.syncedAt <= this.syncIntervalMs * 5;
  }

  private budget(key: string, settings: RetryBudgetSettings): SharedBudget {
    let budget = this.budgets.get(key);
    if (budget === undefined) {
      budget = {
        settings,
        calls: 0,
        retries: 0,
        syncedAt: Number.NEGATIVE_INFINITY,
        pendingCalls: 0,
        pendingRetries: 0,
      };
      this.budgets.set(key, budget);
    }
    return budget;
  }
}

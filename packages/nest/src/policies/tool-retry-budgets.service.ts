import { Inject, Injectable } from '@nestjs/common';
import { type Clock, type RetryBudgetSettings, type RetryBudgetStore } from '@toolshield/core';
import {
  LocalRetryBudgetStore,
  retryBudgetGate,
  type RetryBudgetGate,
} from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * The application's retry budgets, one per upstream key (the tool's breaker, its named rate
 * limit, its `retryBudget.key`, or the tool), counted in the module's `retryBudgetStore`: in
 * memory by default, across instances with `@toolshield/redis`.
 *
 * @internal
 */
@Injectable()
export class ToolRetryBudgets {
  private readonly store: RetryBudgetStore;
  /** The last gate made per key, reused while the same settings ask for it. */
  private readonly gates = new Map<
    string,
    { settings: RetryBudgetSettings; gate: RetryBudgetGate }
  >();

  constructor(
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.store = options.retryBudgetStore ?? new LocalRetryBudgetStore();
  }

  /** The gate of `key`'s budget, judged with `settings`. */
  gate(key: string, settings: RetryBudgetSettings): RetryBudgetGate {
    const cached = this.gates.get(key);
    if (cached?.settings === settings) return cached.gate;
    const gate = retryBudgetGate(key, settings, this.store, this.clock);
    this.gates.set(key, { settings, gate });
    return gate;
  }
}

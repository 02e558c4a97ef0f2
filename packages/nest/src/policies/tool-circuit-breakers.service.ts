import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type CircuitBreakerOptions, type Clock } from '@toolshield/core';
import { type CircuitState } from '@toolshield/core/events';
import {
  CircuitBreakerRegistry,
  DEFAULT_CIRCUIT_BREAKER_OPTIONS,
  type CircuitBreakerRegistration,
  type ToolCircuitBreaker,
} from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolErrorClassifier } from '../execution/tool-error-classifier.js';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import type { ToolBreakerPolicy } from './tool-policies.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/** One breaker's state, as health checks and dashboards read it. @publicApi */
export interface ToolBreakerState {
  /** The tool name, or `tool:key` for breakers split by `@Tool({ breaker: { key } })`. */
  readonly key: string;
  readonly tool: string;
  readonly state: CircuitState;
}

/** A breaker as {@link ToolCircuitBreakers.find} gives it: read live, changed through the service. @publicApi */
export interface ToolBreakerView extends ToolBreakerState {
  /** The rolling window's counts of the calls that succeeded and failed. */
  stats(): { readonly successes: number; readonly failures: number };
}

/**
 * The application's circuit breakers: one per tool, or per tool and key (`tool:key`). Inject
 * it to read their states, or to open, close or isolate one by hand (an incident, a
 * maintenance window). State changes appear on `ToolExecutor.events$` and are saved to the
 * module's `breakerStore`; a breaker takes over the state the store holds for its key when it
 * is first used, so breaker states survive restarts and can be shared between instances.
 * Every breaker stops when the application closes.
 *
 * @example
 * ```ts
 * await breakers.isolate('payments');        // hold it open until close()
 * await breakers.open('search:tenant-42');   // a keyed breaker
 * breakers.states();                         // [{ key: 'payments', tool: 'payments', state: 'isolated' }, ...]
 * ```
 * @publicApi
 */
@Injectable()
export class ToolCircuitBreakers implements OnApplicationShutdown {
  private readonly logger = new Logger('ToolShield');
  private readonly registry: CircuitBreakerRegistry;
  /** Breakers ready for calls, or still taking over their stored state. */
  private readonly ready = new Map<string, ToolCircuitBreaker | Promise<ToolCircuitBreaker>>();

  /** Nest injects the dependencies. @internal */
  constructor(
    events: ToolEventBus,
    private readonly tools: ToolRegistry,
    @Inject(TOOLSHIELD_CLOCK) clock: Clock,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
    private readonly classifier: ToolErrorClassifier,
  ) {
    this.registry = new CircuitBreakerRegistry({
      clock,
      store: options.breakerStore,
      onStateChange: (event) => events.emit(event),
      onStoreError: (error, key) =>
        this.logger.warn(`Could not save the state of breaker "${key}": ${String(error)}`),
    });
  }

  /**
   * The breaker for `key`, created on first use with `options` and, when the module has a
   * `breakerStore`, the state stored for it (a promise until it is loaded). @internal
   */
  acquire(
    key: string,
    tool: string,
    options: CircuitBreakerOptions,
  ): ToolCircuitBreaker | Promise<ToolCircuitBreaker> {
    return (
      this.ready.get(key) ??
      this.create(key, { ...options, tool, isNeutral: this.neutral(options) })
    );
  }

  /** The breaker for `key` (a tool name, or `tool:key` for keyed breakers), if it was used. */
  find(key: string): ToolBreakerView | undefined {
    const breaker = this.registry.find(key);
    if (breaker === undefined) return undefined;
    return {
      key: breaker.key,
      tool: breaker.tool,
      get state() {
        return breaker.state;
      },
      stats: () => breaker.stats(),
    };
  }

  /** Every breaker used so far, with its state. */
  states(): ToolBreakerState[] {
    return this.registry
      .all()
      .map((breaker) => ({ key: breaker.key, tool: breaker.tool, state: breaker.state }));
  }

  /** Opens the breaker of `key` now: calls fail fast until it half-opens after its reset timeout. */
  async open(key: string): Promise<ToolBreakerState> {
    return this.control(key, (breaker) => breaker.open());
  }

  /** Closes the breaker of `key` with a fresh window, also ending an isolation. */
  async close(key: string): Promise<ToolBreakerState> {
    return this.control(key, (breaker) => breaker.close());
  }

  /** Holds the breaker of `key` open, with no reset, until {@link close}. */
  async isolate(key: string): Promise<ToolBreakerState> {
    return this.control(key, (breaker) => breaker.isolate());
  }

  onApplicationShutdown(): void {
    this.registry.dispose();
    this.ready.clear();
  }

  private async control(
    key: string,
    change: (breaker: ToolCircuitBreaker) => void,
  ): Promise<ToolBreakerState> {
    const tool = key.split(':', 1)[0] ?? key;
    const policy = this.tools.get(tool)?.policies.breaker ?? this.sharedPolicy(tool);
    if (!policy)
      throw new Error(`There is no circuit breaker "${key}": no tool "${tool}" with a breaker.`);
    const breaker = await this.acquire(key, tool, policy.options);
    change(breaker);
    return { key, tool, state: breaker.state };
  }

  /** The breaker settings of a tool that shares the breaker named `name`. */
  private sharedPolicy(name: string): ToolBreakerPolicy | undefined {
    for (const tool of this.tools.names()) {
      const policy = this.tools.get(tool)?.policies.breaker;
      if (policy?.name === name) return policy;
    }
    return undefined;
  }

  /**
   * The breaker's `isNeutral`, deciding on the classified error (so an `HttpException` 400 is
   * as neutral as an `InvalidInputError`) while the original error travels on to the filters.
   */
  private neutral({
    isNeutral = DEFAULT_CIRCUIT_BREAKER_OPTIONS.isNeutral,
  }: CircuitBreakerOptions) {
    return (error: unknown) => isNeutral(this.classifier.classify(error));
  }

  private create(
    key: string,
    registration: CircuitBreakerRegistration,
  ): ToolCircuitBreaker | Promise<ToolCircuitBreaker> {
    if (this.options.breakerStore === undefined) {
      const breaker = this.registry.get(key, registration);
      this.ready.set(key, breaker);
      return breaker;
    }
    const loading = this.registry.load(key, registration).catch((error: unknown) => {
      this.logger.warn(`Could not load the state of breaker "${key}": ${String(error)}`);
      return this.registry.get(key, registration);
    });
    this.ready.set(key, loading);
    void loading.then((breaker) => {
      if (this.ready.get(key) === loading) this.ready.set(key, breaker);
    });
    return loading;
  }
}

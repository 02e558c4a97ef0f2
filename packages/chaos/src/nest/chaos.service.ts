import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Clock } from '@toolshield/core';
import { TOOLSHIELD_CLOCK } from '@toolshield/nest';
import type { ChaosRule } from '../selection/chaos-rule.js';
import type { ChaosCounters } from '../runtime/chaos-counters.js';
import type { ChaosInjectionListener } from '../runtime/chaos-injection-event.js';
import { ChaosController, type ChaosRuleStatus } from '../runtime/chaos-controller.js';
import type { ChaosModuleOptions } from './chaos-module-options.interface.js';
import { CHAOS_MODULE_OPTIONS } from './chaos.module-definition.js';

/**
 * Runtime control of the application's fault injection: switch it on and off, change rules,
 * read counters. It wraps the {@link ChaosController} the chaos interceptor asks (created at
 * startup on the module's options and `ToolShieldModule`'s clock).
 *
 * @example
 * ```ts
 * constructor(private readonly chaos: ChaosService) {}
 *
 * startDrill() {
 *   this.chaos.addRule({ name: 'drill', tools: 'search*', fault: upstreamError({ status: 503 }), probability: 0.5 });
 *   this.chaos.enable();
 * }
 * ```
 * @publicApi
 */
@Injectable()
export class ChaosService {
  private current?: ChaosController;

  constructor(
    @Inject(CHAOS_MODULE_OPTIONS) private readonly options: ChaosModuleOptions,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The controller behind this service (for `injectChaos` and `withChaos` outside Nest). */
  get controller(): ChaosController {
    this.current ??= new ChaosController({
      ...this.options,
      clock: this.options.clock ?? this.moduleRef.get<Clock>(TOOLSHIELD_CLOCK, { strict: false }),
    });
    return this.current;
  }

  get enabled(): boolean {
    return this.controller.enabled;
  }

  /** The run's seed: log it, and pass it back (`forRoot({ seed })`) to replay a run. */
  get seed(): number {
    return this.controller.seed;
  }

  /** Switches injection on; throws `ChaosInProductionError` in production unless allowed. */
  enable(): void {
    this.controller.enable();
  }

  /** Switches injection off: calls pass straight through. Rules and counters are kept. */
  disable(): void {
    this.controller.disable();
  }

  /** Adds a rule and returns its id. */
  addRule(rule: ChaosRule): string {
    return this.controller.addRule(rule);
  }

  /** Removes a rule; returns whether it existed. */
  removeRule(id: string): boolean {
    return this.controller.removeRule(id);
  }

  /** Replaces every rule. */
  setRules(rules: readonly ChaosRule[]): void {
    this.controller.setRules(rules);
  }

  /** The rules in the order they apply, with their progress. */
  rules(): readonly ChaosRuleStatus[] {
    return this.controller.rules();
  }

  /** Calls and injections so far, by rule, fault and tool. */
  counters(): ChaosCounters {
    return this.controller.counters();
  }

  /** Zeroes counters and replays the rules' random streams (from `seed` when given). */
  reset(seed?: number): void {
    this.controller.reset(seed);
  }

  /** Calls `listener` for every injection; returns the function that unsubscribes it. */
  onInjected(listener: ChaosInjectionListener): () => void {
    return this.controller.onInjected(listener);
  }
}

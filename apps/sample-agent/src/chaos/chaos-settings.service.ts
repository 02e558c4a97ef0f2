import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChaosService } from '@toolshield/chaos';
import { ToolRegistry } from '@toolshield/nest';
import { isSafeReadTool } from '../tools/tool-traits.js';
import { InvalidChaosRuleError } from './chaos-rule-errors.js';
import { parseChaosRuleSpec, toChaosRule, type ChaosRuleSpec } from './chaos-rule-spec.js';
import type { ChaosToolScope } from './chaos-tool-scope.js';
import { DEFAULT_CHAOS_RULES, DEFAULT_CHAOS_SEED } from './default-chaos-rules.js';

/** A rule with how often it matched and injected. */
export interface ChaosRuleState extends ChaosRuleSpec {
  readonly matchedCalls: number;
  readonly injections: number;
}

/** What `GET /api/chaos` answers. */
export interface ChaosState {
  readonly enabled: boolean;
  readonly seed: number;
  readonly rules: readonly ChaosRuleState[];
}

/**
 * The app's chaos switch over `ChaosService` from `@toolshield/chaos`: the rules as JSON specs
 * (what the API shows and accepts), on or off at run time. Starts with
 * {@link DEFAULT_CHAOS_RULES}; {@link ChaosSettings.reset} goes back to them.
 */
@Injectable()
export class ChaosSettings implements OnModuleInit {
  private specs: readonly ChaosRuleSpec[] = DEFAULT_CHAOS_RULES;
  private enabledAtStart = false;

  constructor(
    private readonly chaos: ChaosService,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    this.enabledAtStart = this.chaos.enabled;
    this.apply(DEFAULT_CHAOS_RULES);
  }

  state(): ChaosState {
    const counts = new Map(this.chaos.rules().map((status) => [status.id, status]));
    return {
      enabled: this.chaos.enabled,
      seed: this.chaos.seed,
      rules: this.specs.map((spec) => ({
        ...spec,
        matchedCalls: counts.get(spec.name)?.matchedCalls ?? 0,
        injections: counts.get(spec.name)?.injections ?? 0,
      })),
    };
  }

  /**
   * Applies `{ enabled?, rules? }` (other fields, such as the `seed` GET shows, are ignored);
   * throws {@link InvalidChaosRuleError} and changes nothing on bad input.
   */
  update(body: unknown): ChaosState {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidChaosRuleError(
        'The body must be an object: { "enabled"?: boolean, "rules"?: [...] }.',
      );
    }
    const { enabled, rules } = body as { enabled?: unknown; rules?: unknown };
    if (enabled !== undefined && typeof enabled !== 'boolean') {
      throw new InvalidChaosRuleError('"enabled" must be true or false.');
    }
    if (rules !== undefined && !Array.isArray(rules)) {
      throw new InvalidChaosRuleError('"rules" must be a list of rules.');
    }
    const scope = this.scope();
    const specs = rules?.map((rule, index) => parseChaosRuleSpec(rule, index, scope));
    if (specs) this.apply(specs);
    if (enabled === true) this.chaos.enable();
    if (enabled === false) this.chaos.disable();
    return this.state();
  }

  /** Back to the default rules, seed and switch (as at startup), counters at zero. */
  reset(): ChaosState {
    this.apply(DEFAULT_CHAOS_RULES);
    this.chaos.reset(DEFAULT_CHAOS_SEED);
    if (this.enabledAtStart) this.chaos.enable();
    else this.chaos.disable();
    return this.state();
  }

  private apply(specs: readonly ChaosRuleSpec[]): void {
    const scope = this.scope();
    this.chaos.setRules(specs.map((spec) => toChaosRule(spec, scope)));
    this.specs = specs;
  }

  /** The registered tools, and which of them a rule without a tool list reaches. */
  private scope(): ChaosToolScope {
    const all = this.registry.names();
    return { all, safeReads: all.filter((name) => isSafeReadTool(this.registry.get(name))) };
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChaosService } from '@toolshield/chaos';
import {
  InvalidChaosRuleError,
  parseChaosRuleSpec,
  toChaosRule,
  type ChaosRuleSpec,
} from './chaos-rule-spec.js';
import { DEFAULT_CHAOS_RULES } from './default-chaos-rules.js';

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
 * {@link DEFAULT_CHAOS_RULES}.
 */
@Injectable()
export class ChaosSettings implements OnModuleInit {
  private specs: readonly ChaosRuleSpec[] = DEFAULT_CHAOS_RULES;

  constructor(private readonly chaos: ChaosService) {}

  onModuleInit(): void {
    this.chaos.setRules(this.specs.map(toChaosRule));
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

  /** Applies `{ enabled?, rules? }`; throws {@link InvalidChaosRuleError} and changes nothing on bad input. */
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
    const specs = rules?.map((rule, index) => parseChaosRuleSpec(rule, index));
    if (specs) {
      this.chaos.setRules(specs.map(toChaosRule));
      this.specs = specs;
    }
    if (enabled === true) this.chaos.enable();
    if (enabled === false) this.chaos.disable();
    return this.state();
  }
}

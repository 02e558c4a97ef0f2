import { Injectable } from '@nestjs/common';
import type { CircuitOpenError } from '@toolshield/core';
import { ToolPipeline } from '../invocation/tool-pipeline.js';
import { ToolCircuitBreakers } from '../policies/tool-circuit-breakers.service.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';

/** How a call ends that an open breaker refuses before anything else runs. @internal */
export interface BreakerRefusal {
  readonly error: CircuitOpenError;
  /** The retries the call's policy allows: the failure reports them as the pipeline would. */
  readonly retryMax: number;
}

/**
 * Fails a call fast, before the call is set up, when its tool's breaker is not letting calls
 * through and nothing else would have run first: an agent under an outage makes thousands of
 * calls that an open breaker refuses, and each then costs what opossum's own rejection costs
 * or less. It answers only when the outcome is the one the full pipeline gives: the tool runs
 * on the direct lane (no guards, interceptors or filters of yours to see the call), its
 * breaker is not keyed by the call and is decided locally, no policy acts before the breaker
 * but a retry that would not retry the rejection, and the tool has no fallback. The caller
 * (the executor) also takes the full path whenever someone observes the events, so every
 * event is still reported.
 *
 * @internal
 */
@Injectable()
export class OpenBreakerShortcut {
  /**
   * Whether each tool's own policies qualify (per-call overrides are checked each call): one
   * weak entry per registered tool.
   */
  private readonly eligible = new WeakMap<RegisteredTool, boolean>();

  constructor(
    private readonly pipeline: ToolPipeline,
    private readonly breakers: ToolCircuitBreakers,
  ) {}

  /** The refusal that ends a call of `tool` with `policies` now, if its breaker refuses it. */
  refusal(tool: RegisteredTool, policies: ToolPolicies): BreakerRefusal | undefined {
    const breakerPolicy = policies.breaker;
    if (breakerPolicy === undefined || !this.isEligible(tool, policies)) return undefined;
    const name = breakerPolicy.name ?? tool.name;
    const breaker = this.breakers.acquire(name, name, breakerPolicy.options);
    if (breaker instanceof Promise) return undefined;
    const error = breaker.rejection();
    if (error === undefined) return undefined;
    const retry = policies.retry;
    if (retry === undefined) return { error, retryMax: 0 };
    if (retry.maxRetries > 0 && retry.isRetryable(error, 1)) return undefined;
    return { error, retryMax: retry.maxRetries };
  }

  private isEligible(tool: RegisteredTool, policies: ToolPolicies): boolean {
    if (policies !== tool.policies) return this.qualifies(tool, policies);
    let eligible = this.eligible.get(tool);
    if (eligible === undefined) {
      eligible = this.qualifies(tool, policies);
      this.eligible.set(tool, eligible);
    }
    return eligible;
  }

  private qualifies(tool: RegisteredTool, policies: ToolPolicies): boolean {
    return (
      tool.lane === 'direct' &&
      tool.options.fallback === undefined &&
      policies.breaker?.key === undefined &&
      this.pipeline.breakerActsFirst(policies)
    );
  }
}

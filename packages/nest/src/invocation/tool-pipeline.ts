import { Injectable, type NestInterceptor } from '@nestjs/common';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { BulkheadLayer } from '../policies/layers/bulkhead.layer.js';
import { CircuitBreakerLayer } from '../policies/layers/circuit-breaker.layer.js';
import { HedgingLayer } from '../policies/layers/hedging.layer.js';
import { RateLimitLayer } from '../policies/layers/rate-limit.layer.js';
import { RetryLayer } from '../policies/layers/retry.layer.js';
import { TimeoutLayer } from '../policies/layers/timeout.layer.js';
import { chainPolicyLayers, type PolicyChain } from '../policies/layers/policy-chain.js';
import type { InnerRun, ToolPolicyLayer } from '../policies/layers/tool-policy-layer.js';
import type { ToolPolicyName } from '../interfaces/tool-policy-defaults.interface.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import { ToolResultLayers } from '../results/tool-result-layers.js';

/** Retry(RateLimit(CircuitBreaker(Timeout(Bulkhead(tool))))). @publicApi */
export const DEFAULT_POLICY_ORDER: readonly ToolPolicyName[] = Object.freeze([
  'retry',
  'rateLimit',
  'breaker',
  'timeout',
  'bulkhead',
]);

/**
 * The policies toolshield puts around a tool's method, outermost first, in the configured
 * order, and around whatever other modules (the chaos module) add closest to the method with
 * {@link ToolPipeline.useInnermost}. A policy the tool does not have is left out entirely, so
 * it costs nothing. Hedging, when the tool has it, is always innermost: it runs two of
 * whatever lies inside the policies at once. They run after your guards, interceptors and
 * pipes, so yours see one call however many attempts it takes.
 *
 * @publicApi
 */
@Injectable()
export class ToolPipeline {
  private readonly innermost: NestInterceptor[] = [];
  private readonly order: readonly ToolPolicyName[];
  private readonly byPolicy: Readonly<Record<ToolPolicyName, ToolPolicyLayer>>;

  /** Nest injects the dependencies. @internal */
  constructor(
    retry: RetryLayer,
    breaker: CircuitBreakerLayer,
    timeout: TimeoutLayer,
    bulkhead: BulkheadLayer,
    rateLimit: RateLimitLayer,
    private readonly hedging: HedgingLayer,
    private readonly results: ToolResultLayers,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.byPolicy = { retry, breaker, timeout, bulkhead, rateLimit };
    this.order = withRateLimit(options.policyOrder ?? DEFAULT_POLICY_ORDER);
  }

  /** Adds an interceptor between the policies and the tool method (before bootstrap). */
  useInnermost(interceptor: NestInterceptor): void {
    this.innermost.push(interceptor);
  }

  /** The layers of a tool with these policies, in the configured order, stacked around `attempt`. @internal */
  policyChainFor(policies: ToolPolicies, attempt: InnerRun): PolicyChain {
    const hedging = this.hedging;
    return chainPolicyLayers(
      [
        ...this.results.layersFor(policies),
        ...this.order.filter((name) => isActive(name, policies)).map((name) => this.byPolicy[name]),
      ],
      policies.hedging ? (call, state) => hedging.run(attempt, call, state) : attempt,
    );
  }

  /** The interceptors other modules put between the policies and the method, outermost first. @internal */
  get innermostInterceptors(): readonly NestInterceptor[] {
    return this.innermost;
  }
}

/** The timeout layer also carries the caller's cancellation, so every tool keeps it. */
function isActive(name: ToolPolicyName, policies: ToolPolicies): boolean {
  switch (name) {
    case 'retry':
      return policies.retry !== undefined;
    case 'breaker':
      return policies.breaker !== undefined;
    case 'bulkhead':
      return policies.bulkhead !== undefined;
    case 'rateLimit':
      return policies.rateLimit !== undefined;
    case 'timeout':
      return true;
  }
}

/** An order without `rateLimit` (written before it existed) gets it right inside `retry`. */
function withRateLimit(order: readonly ToolPolicyName[]): readonly ToolPolicyName[] {
  if (order.includes('rateLimit')) return order;
  const retry = order.indexOf('retry');
  return [...order.slice(0, retry + 1), 'rateLimit', ...order.slice(retry + 1)];
}

import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { systemClock } from '@toolshield/core';
import { ToolCallLedgerStore } from '@toolshield/core/agent';
import { ApprovalStore } from '@toolshield/core/approvals';
import { AgentRunnerFactory } from './agent/agent-runner.factory.js';
import { ledgerStoreProvider } from './agent/ledger-store.provider.js';
import { ToolBatchRunner } from './agent/tool-batch-runner.service.js';
import { approvalStoreProvider } from './approvals/approval-store.provider.js';
import { ToolApprovalGate } from './approvals/tool-approval-gate.js';
import { ToolApprovals } from './approvals/tool-approvals.js';
import { ToolExplorer } from './discovery/tool.explorer.js';
import { ToolInvokerFactory } from './invocation/tool-invoker.factory.js';
import { ToolPipeline } from './invocation/tool-pipeline.js';
import { TOOL_RESULT_PROVIDERS } from './results/tool-result.providers.js';
import { ToolErrorClassifier } from './execution/tool-error-classifier.js';
import { ToolEventBus } from './execution/tool-event-bus.js';
import { ToolExecutor } from './execution/tool-executor.service.js';
import { ToolFailureFactory } from './execution/tool-failure.factory.js';
import { ToolFailureFilter } from './filters/tool-failure.filter.js';
import { BulkheadLayer } from './policies/layers/bulkhead.layer.js';
import { CircuitBreakerLayer } from './policies/layers/circuit-breaker.layer.js';
import { HedgingLayer } from './policies/layers/hedging.layer.js';
import { RateLimitLayer } from './policies/layers/rate-limit.layer.js';
import { UpstreamFeedback } from './policies/upstream-feedback.js';
import { ToolRateLimiters } from './policies/tool-rate-limiters.service.js';
import { ToolRetryBudgets } from './policies/tool-retry-budgets.service.js';
import { RetryLayer } from './policies/layers/retry.layer.js';
import { TimeoutLayer } from './policies/layers/timeout.layer.js';
import { ToolCircuitBreakers } from './policies/tool-circuit-breakers.service.js';
import type { ToolShieldModuleOptions } from './interfaces/toolshield-module-options.interface.js';
import { ToolAssembler } from './registration/tool-assembler.js';
import { ToolRegistrar } from './registration/tool.registrar.js';
import { ToolRegistry } from './registry/tool.registry.js';
import { TOOLSHIELD_CLOCK, TOOLSHIELD_RANDOM } from './toolshield.constants.js';
import { TOOLSHIELD_MODULE_OPTIONS } from './toolshield.module-definition.js';
import { ToolShieldModuleBase } from './toolshield-module-base.js';
import { ToolValidationPipe } from './validation/tool-validation.pipe.js';

const clockProvider: Provider = {
  provide: TOOLSHIELD_CLOCK,
  useFactory: (options: ToolShieldModuleOptions) => options.clock ?? systemClock,
  inject: [TOOLSHIELD_MODULE_OPTIONS],
};

const randomProvider: Provider = {
  provide: TOOLSHIELD_RANDOM,
  useFactory: (options: ToolShieldModuleOptions) => options.random ?? Math.random,
  inject: [TOOLSHIELD_MODULE_OPTIONS],
};

/**
 * Makes every `@Tool()` method of the application callable through the injectable
 * {@link ToolExecutor}, behind the resilience pipeline. Import it once, in the root module
 * (`isGlobal: true` makes its providers visible everywhere).
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [ToolShieldModule.forRoot({ isGlobal: true })],
 *   providers: [WeatherTools],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    clockProvider,
    randomProvider,
    ToolRegistry,
    ToolEventBus,
    ToolErrorClassifier,
    ToolFailureFactory,
    ToolFailureFilter,
    RetryLayer,
    CircuitBreakerLayer,
    TimeoutLayer,
    BulkheadLayer,
    RateLimitLayer,
    HedgingLayer,
    ...TOOL_RESULT_PROVIDERS,
    UpstreamFeedback,
    ToolCircuitBreakers,
    ToolRateLimiters,
    ToolRetryBudgets,
    ToolPipeline,
    ToolInvokerFactory,
    ToolAssembler,
    ToolExplorer,
    ToolRegistrar,
    ToolExecutor,
    ToolValidationPipe,
    ledgerStoreProvider,
    approvalStoreProvider,
    ToolApprovalGate,
    ToolApprovals,
    ToolBatchRunner,
    AgentRunnerFactory,
  ],
  exports: [
    TOOLSHIELD_CLOCK,
    TOOLSHIELD_RANDOM,
    TOOLSHIELD_MODULE_OPTIONS,
    ToolRegistry,
    ToolRegistrar,
    ToolExecutor,
    ToolErrorClassifier,
    ToolCircuitBreakers,
    ToolRateLimiters,
    ToolPipeline,
    ToolValidationPipe,
    ToolCallLedgerStore,
    ApprovalStore,
    ToolBatchRunner,
    AgentRunnerFactory,
  ],
})
export class ToolShieldModule extends ToolShieldModuleBase {
  /** Registers the module; every option has a default, so `forRoot()` alone works. */
  static override forRoot(
    options: ToolShieldModuleOptions & { readonly isGlobal?: boolean } = {},
  ): DynamicModule {
    return super.forRoot(options);
  }
}

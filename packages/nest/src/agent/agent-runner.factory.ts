import { Inject, Injectable } from '@nestjs/common';
import { type ToolDefinition } from '@toolshield/core';
import {
  AgentRunner,
  ToolCallLedgerStore,
  type AgentRunnerOptions,
  type ChatModelTool,
} from '@toolshield/core/agent';
import { hasSideEffects } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolExecutor } from '../execution/tool-executor.service.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import {
  toolCallExecutor,
  type AgentExecuteOptions,
  type AgentExecuteOptionsFactory,
} from './tool-call-executor.js';

/**
 * Options of `AgentRunnerFactory.create()`: the core runner's, with the executor, tools and
 * store filled in from the module.
 *
 * @publicApi
 */
export interface ToolShieldAgentRunnerOptions extends Omit<AgentRunnerOptions, 'executor'> {
  /** What the model may call; default every registered tool. */
  readonly tools?: readonly ChatModelTool[];
  /** Default the `ToolCallLedgerStore` provider (the module's `agent.ledgerStore`, or in memory). */
  readonly store?: ToolCallLedgerStore;
  /**
   * Passed to `ToolExecutor.execute()` for every call the runner makes, or a function that
   * builds them per call from the call and the run's `conversationId`. Each call also gets the
   * run's `conversationId` (which scopes the default idempotency key), unless these set one.
   */
  readonly execute?: AgentExecuteOptions | AgentExecuteOptionsFactory;
}

function toChatModelTool(definition: ToolDefinition): ChatModelTool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.inputSchema,
  };
}

/**
 * Builds `AgentRunner`s (the ReAct loop of `@toolshield/core`) wired to this application:
 * tool calls go through the {@link ToolExecutor} with the run's `conversationId` (so two
 * conversations' `call_3` get different idempotency keys), the model is offered every
 * registered tool (and the runner's completion tool when none is registered under its name),
 * and histories are kept in the `ToolCallLedgerStore` provider. Batch settings start from the
 * module's `agent.batch`. By default a call interrupted before its result was recorded is
 * answered as safe to repeat when its tool declares no side effects (`hasSideEffects`).
 *
 * @example
 * ```ts
 * const runner = agents.create({ model, systemPrompt: 'You plan trips.' });
 * const result = await runner.run({ conversationId: 'c1', input: 'Weather in Paris?' });
 * ```
 * @publicApi
 */
@Injectable()
export class AgentRunnerFactory {
  constructor(
    private readonly executor: ToolExecutor,
    private readonly registry: ToolRegistry,
    @Inject(ToolCallLedgerStore) private readonly store: ToolCallLedgerStore,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
  ) {}

  /** A runner for `options.model`; call it after the application has initialised (tools are discovered then). */
  create(options: ToolShieldAgentRunnerOptions): AgentRunner {
    const { execute, tools, store, batch, ...rest } = options;
    return new AgentRunner({
      safeToRepeat: (name) => this.hasNoSideEffects(name),
      ...rest,
      executor: toolCallExecutor(this.executor, execute),
      tools: tools ?? this.registry.definitions().map(toChatModelTool),
      store: store ?? this.store,
      batch: { ...this.options.agent?.batch, ...batch },
    });
  }

  /** A registered tool that declares no side effects (`hasSideEffects`): safe to repeat. */
  private hasNoSideEffects(name: string): boolean {
    const tool = this.registry.get(name);
    return tool !== undefined && !hasSideEffects(tool.options);
  }
}

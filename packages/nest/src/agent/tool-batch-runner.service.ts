import { Injectable } from '@nestjs/common';
import { type ToolCallRequest } from '@toolshield/core';
import { runToolBatch, type ToolBatchOptions, type ToolBatchResult } from '@toolshield/core/agent';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolExecutor } from '../execution/tool-executor.service.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { toolCallExecutor, type AgentExecuteOptions } from './tool-call-executor.js';

/** Options of `ToolBatchRunner.run()`: the core batch options plus what every call gets. @publicApi */
export interface ToolBatchRunOptions extends ToolBatchOptions {
  /** Passed to `ToolExecutor.execute()` for every call (metadata, timeout, retry). */
  readonly execute?: AgentExecuteOptions;
}

/**
 * Runs one model turn's tool calls through the {@link ToolExecutor}, sequentially or in
 * parallel with bounded concurrency (`runToolBatch` from `@toolshield/core`). One failure never
 * cancels its siblings, results come back in call order, and a terminating tool (`ask`,
 * `complete`, ... or the module's `agent.batch.terminatingTools`) ends a sequential batch:
 * the later calls get a `cancelled` result saying why they did not run. Never rejects.
 *
 * @example
 * ```ts
 * const { entries } = await batches.run(toolCalls, { strategy: 'parallel', concurrency: 3 });
 * messages.push(...entries.map((entry) => toOpenAIToolMessage(entry.outcome)));
 * ```
 * @publicApi
 */
@Injectable()
export class ToolBatchRunner {
  constructor(
    private readonly executor: ToolExecutor,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
  ) {}

  /** Runs `calls`; `options` override the module's `agent.batch` defaults. */
  run(
    calls: readonly ToolCallRequest[],
    options: ToolBatchRunOptions = {},
  ): Promise<ToolBatchResult> {
    const { execute, ...batch } = options;
    return runToolBatch(calls, toolCallExecutor(this.executor, execute), {
      ...this.options.agent?.batch,
      ...batch,
    });
  }
}

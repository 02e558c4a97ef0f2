import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NotFoundError, DEFAULT_OUTPUT_BUDGET } from '@toolshield/core';
import { BYTES_PER_TOKEN, readOutputPage } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { ToolRegistrar } from '../registration/tool.registrar.js';
import { READ_TOOL_OUTPUT } from './read-tool-output.constants.js';
import { resolveOutputBudget } from './result-policies.js';
import { ToolOutputHandles } from './tool-output-handles.js';

interface ReadToolOutputArgs {
  readonly handle: string;
  readonly offset?: number;
}

/**
 * Registers `read_tool_output` when the module's `readMoreTool` is on: the model reads a cut
 * output's rest by the handle its note names, one part at a time (items of an array, else
 * characters of its text), each part within the module's default output budget.
 *
 * @internal
 */
@Injectable()
export class ReadToolOutputTool implements OnModuleInit {
  constructor(
    private readonly handles: ToolOutputHandles,
    private readonly registrar: ToolRegistrar,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
  ) {}

  onModuleInit(): void {
    const store = this.handles.store;
    if (store === undefined) return;
    const budget =
      resolveOutputBudget({ description: '' }, this.options.defaults?.output) ??
      DEFAULT_OUTPUT_BUDGET;
    const pageBytes = Math.min(
      budget.maxBytes ?? Infinity,
      (budget.maxTokens ?? Infinity) * BYTES_PER_TOKEN,
    );
    this.registrar.register<ReadToolOutputArgs>({
      name: READ_TOOL_OUTPUT,
      description:
        'Reads more of a tool output that was cut to fit: give the handle named in its note, and the offset to start from (items of a list, else characters).',
      inputSchema: {
        type: 'object',
        properties: {
          handle: { type: 'string', description: 'The handle named in the cut output’s note.' },
          offset: { type: 'integer', minimum: 0, description: 'Where to start (default 0).' },
        },
        required: ['handle'],
        additionalProperties: false,
      },
      idempotent: true,
      annotations: { readOnlyHint: true },
      output: false,
      source: 'the read-more tool (readMoreTool)',
      handler: ({ handle, offset }) => {
        const output = store.get(String(handle));
        if (output === undefined) {
          throw new NotFoundError(
            `No output is kept under "${String(handle)}": it expired or never existed; call the original tool again.`,
          );
        }
        return readOutputPage(output, Number(offset ?? 0), pageBytes);
      },
    });
  }
}

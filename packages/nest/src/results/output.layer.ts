import { Injectable } from '@nestjs/common';
import type { OutputCut } from '@toolshield/core';
import { cacheNotes, fitOutput, type FitOutputOptions } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { MutableToolCallContext, ToolCallState } from '../execution/tool-call-state.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import type { InnerRun, ToolPolicyLayer } from '../policies/layers/tool-policy-layer.js';
import type { CacheMetadata } from './cache.layer.js';
import { READ_TOOL_OUTPUT } from './read-tool-output.constants.js';
import { ToolOutputHandles } from './tool-output-handles.js';

/** What `metadata.output` of a cut result says. @publicApi */
export type OutputMetadata = OutputCut & { readonly cut: true };

/**
 * The outermost layer of a tool with an output budget or a cache: fits the output to the
 * tool's budget, and puts what the model must know beside it (`{ note, output }`): that it was
 * cut and where the rest is, that it is a stale answer and how old. The result's metadata says
 * the same for code (`metadata.output`, `metadata.cache`).
 *
 * @internal
 */
@Injectable()
export class OutputLayer implements ToolPolicyLayer {
  private readonly fitOptions: Pick<FitOutputOptions, 'estimateTokens' | 'keep' | 'readWith'>;

  constructor(
    handles: ToolOutputHandles,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    const store = handles.store;
    this.fitOptions = {
      estimateTokens: options.estimateTokens,
      keep: store && ((output) => store.keep(output)),
      readWith: READ_TOOL_OUTPUT,
    };
  }

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    // A fulfilment handler alone: a failure passes through without another promise's work.
    return inner(call, state).then((value) => this.fit(value, state));
  }

  private fit(value: unknown, state: ToolCallState): unknown {
    const budget = state.policies.output;
    const cache = state.resultMetadata?.cache as CacheMetadata | undefined;
    const notes = cacheNotes(cache);
    if (budget === undefined && notes.length === 0) return value;
    let fitted: ReturnType<typeof fitOutput>;
    try {
      fitted = fitOutput(value, budget ?? {}, { ...this.fitOptions, notes });
    } catch {
      return value; // not JSON: the executor fails it as invalid_output
    }
    if (fitted.cut) {
      const output: OutputMetadata = { cut: true, ...fitted.cut };
      state.resultMetadata = { ...state.resultMetadata, output };
    }
    return fitted.output;
  }
}

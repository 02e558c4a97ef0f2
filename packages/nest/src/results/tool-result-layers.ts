import { Injectable } from '@nestjs/common';
import type { ToolPolicyLayer } from '../policies/layers/tool-policy-layer.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import { CacheLayer } from './cache.layer.js';
import { OutputLayer } from './output.layer.js';

const NONE: readonly ToolPolicyLayer[] = Object.freeze([]);

/**
 * The layers about a tool's result, outside all its policies (outermost first): the output
 * budget and notes, then the cache, so a cached answer skips every policy and what the model
 * reads is fitted and marked however the answer came. A tool with neither has none.
 *
 * @internal
 */
@Injectable()
export class ToolResultLayers {
  private readonly both: readonly ToolPolicyLayer[];
  private readonly outputOnly: readonly ToolPolicyLayer[];

  constructor(output: OutputLayer, cache: CacheLayer) {
    this.both = Object.freeze([output, cache]);
    this.outputOnly = Object.freeze([output]);
  }

  /** The result layers of a tool with these policies, outermost first. */
  layersFor(policies: ToolPolicies): readonly ToolPolicyLayer[] {
    if (policies.cache !== undefined) return this.both;
    return policies.output === undefined ? NONE : this.outputOnly;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { type Clock, InMemoryToolCacheStore, type ToolCacheMetadata } from '@toolshield/core';
import { ToolResultCache, toolCacheKey, toolCacheMetadata } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { MutableToolCallContext, ToolCallState } from '../execution/tool-call-state.js';
import { ToolErrorClassifier } from '../execution/tool-error-classifier.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import type { InnerRun, ToolPolicyLayer } from '../policies/layers/tool-policy-layer.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/** What `metadata.cache` of a result says: how the call met the cache. @publicApi */
export type CacheMetadata = ToolCacheMetadata;

/**
 * The cache of a read-only tool, outside all its other policies: a fresh entry answers
 * before any policy runs (an open breaker included), identical concurrent calls share one run
 * through the policies, and a failure they end in for a transient reason is answered from a
 * stale entry when one is young enough. The result says how (`metadata.cache`).
 *
 * @internal
 */
@Injectable()
export class CacheLayer implements ToolPolicyLayer {
  private readonly cache: ToolResultCache;

  constructor(
    private readonly classifier: ToolErrorClassifier,
    @Inject(TOOLSHIELD_CLOCK) clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.cache = new ToolResultCache(
      options.cacheStore ?? new InMemoryToolCacheStore({ clock }),
      clock,
    );
  }

  async run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const settings = state.policies.cache;
    if (settings === undefined) return inner(call, state);
    const scope = settings.scope === undefined ? '' : settings.scope(call, state.args);
    if (settings.scope !== undefined && !scope) return inner(call, state);
    const answer = await this.cache.answer(
      toolCacheKey(state.tool.name, state.args, scope),
      settings,
      () => inner(call, state),
      (error) => this.classifier.classify(error).type,
    );
    if (answer.lookup === 'stale') countFailure(state);
    const cache: CacheMetadata = toolCacheMetadata(answer);
    const own = answer.lookup === 'miss' ? state.resultMetadata : undefined;
    state.resultMetadata = { ...own, cache };
    return answer.value;
  }
}

/**
 * The breaker counts a call's failure when the call ends failed; a stale answer ends it
 * answered, so the failure the upstream gave is counted here, or an outage would never open it.
 */
function countFailure(state: ToolCallState): void {
  const pending = state.pendingFailure;
  state.pendingFailure = undefined;
  pending?.();
}

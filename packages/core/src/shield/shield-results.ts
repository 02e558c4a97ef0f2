import { InMemoryToolCacheStore } from '../cache/in-memory-tool-cache-store.js';
import { cacheNotes } from '../cache/stale-answer.js';
import {
  ToolResultCache,
  toolCacheMetadata,
  type ToolCacheMetadata,
} from '../cache/tool-result-cache.js';
import { toolCacheKey } from '../cache/cache-key.js';
import type { Clock } from '../clock/clock.js';
import type { ToolErrorType } from '../errors/tool-error-type.js';
import { InvalidOptionsError } from '../options/invalid-options.error.js';
import { DEFAULT_OUTPUT_BUDGET, fitOutput } from '../output/output-budget.js';
import type { PolicyOutcome } from '../policies/compose.js';
import type { ShieldCall, ShieldOptions } from './shield-options.js';

/** A failed run, carried through the cache so the call still ends with its own report. */
class FailedRun {
  constructor(readonly outcome: PolicyOutcome<never>) {}
}

/** How a call met the cache: its outcome, and `metadata.cache` when the tool has a cache. */
interface CachedRun<T> {
  readonly outcome: PolicyOutcome<T>;
  readonly cache?: ToolCacheMetadata;
}

/**
 * The result layers of a shielded tool, as `@Tool()` has them in Nest: the cache of a read-only
 * tool around its policies, and the output budget on what the model reads.
 *
 * @internal
 */
export class ShieldResults {
  private readonly cache: ToolResultCache | undefined;

  constructor(
    private readonly options: ShieldOptions,
    clock: Clock,
    private readonly errorTypeOf: (error: unknown) => ToolErrorType,
  ) {
    const settings = options.cache;
    if (settings === undefined) return;
    if (options.idempotent !== true || options.readOnly !== true) {
      throw new InvalidOptionsError('shieldTool options', [
        {
          path: `${options.name}.cache`,
          received: 'an object',
          expected:
            'absent unless the tool is idempotent and read-only (idempotent: true and readOnly: true), since a cached answer stands in for a call that did not run',
        },
      ]);
    }
    this.cache = new ToolResultCache(
      settings.store ?? new InMemoryToolCacheStore({ clock }),
      clock,
    );
  }

  /** `attempt()`'s outcome, or the cache's answer in its place. */
  async run<T>(
    args: unknown,
    call: ShieldCall,
    attempt: () => Promise<PolicyOutcome<T>>,
  ): Promise<CachedRun<T>> {
    const settings = this.options.cache;
    const scope = settings?.scope === undefined ? '' : settings.scope(args, call);
    if (this.cache === undefined || settings === undefined || (settings.scope && !scope)) {
      return { outcome: await attempt() };
    }
    let ran: PolicyOutcome<T> | undefined;
    try {
      const answer = await this.cache.answer(
        toolCacheKey(this.options.name, args, scope),
        settings,
        async () => {
          ran = await attempt();
          if (!ran.ok) throw new FailedRun(ran as PolicyOutcome<never>);
          return ran.value;
        },
        (error) =>
          this.errorTypeOf(
            error instanceof FailedRun ? (error.outcome as { error: unknown }).error : error,
          ),
      );
      const outcome: PolicyOutcome<T> =
        answer.lookup === 'miss' && ran?.ok
          ? ran
          : {
              ok: true,
              value: answer.value as T,
              attempts: ran?.attempts ?? 0,
              retryCount: ran?.retryCount ?? 0,
              retryMax: ran?.retryMax ?? 0,
            };
      return { outcome, cache: toolCacheMetadata(answer) };
    } catch (error) {
      if (error instanceof FailedRun) return { outcome: error.outcome };
      throw error;
    }
  }

  /** What the model reads of `output`, and what the result's metadata says about it. */
  fit(
    output: unknown,
    cache: ToolCacheMetadata | undefined,
  ): { readonly output: unknown; readonly metadata?: Readonly<Record<string, unknown>> } {
    const budget =
      this.options.output === false ? undefined : (this.options.output ?? DEFAULT_OUTPUT_BUDGET);
    const notes = cacheNotes(cache);
    const cacheFact = cache === undefined ? {} : { cache };
    if (budget === undefined && notes.length === 0) return { output, metadata: cacheFact };
    const fitted = fitOutput(output, budget ?? {}, {
      notes,
      estimateTokens: this.options.estimateTokens,
    });
    const cut = fitted.cut === undefined ? {} : { output: { cut: true, ...fitted.cut } };
    return { output: fitted.output, metadata: { ...cacheFact, ...cut } };
  }
}

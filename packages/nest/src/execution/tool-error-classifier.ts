import { Inject, Injectable } from '@nestjs/common';
import { ToolError, classifyError, type Clock } from '@toolshield/core';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * Maps anything thrown to a {@link ToolError}, with the module's own rules first. The same
 * error object is classified once, however many layers ask.
 *
 * The policies decide on the classification but let the original error travel on
 * ({@link ToolErrorClassifier.original}), so your exception filters catch your own error
 * classes on tools as they do on controllers; the failure filter classifies last.
 *
 * @publicApi
 */
@Injectable()
export class ToolErrorClassifier {
  private readonly classified = new WeakMap<object, ToolError>();
  private readonly originals = new WeakMap<ToolError, unknown>();

  private readonly now: () => number;
  /** No classification rules of the application's: a `ToolError` stands as it is. */
  private readonly withoutRules: boolean;

  constructor(
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
    @Inject(TOOLSHIELD_CLOCK) clock: Clock,
  ) {
    // `Retry-After` dates become delays against the module's clock (virtual in tests).
    this.now = () => clock.now();
    this.withoutRules = (options.classificationRules?.length ?? 0) === 0;
  }

  classify(error: unknown): ToolError {
    // Most failures on a fast path are toolshield's own errors: nothing to classify or remember.
    if (error instanceof ToolError && this.withoutRules) return error;
    const cacheable = typeof error === 'object' && error !== null;
    const known = cacheable ? this.classified.get(error) : undefined;
    if (known) return known;
    const toolError = classifyError(error, {
      rules: this.options.classificationRules,
      now: this.now,
    });
    if (cacheable) this.classified.set(error, toolError);
    if (toolError !== error) this.originals.set(toolError, error);
    return toolError;
  }

  /** The error `error` was classified from, or `error` itself (a policy's own error, say). */
  original(error: unknown): unknown {
    return error instanceof Object && this.originals.has(error as ToolError)
      ? this.originals.get(error as ToolError)
      : error;
  }
}

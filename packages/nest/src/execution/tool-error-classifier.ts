import { Inject, Injectable } from '@nestjs/common';
import { ToolError, classifyError, type Clock } from '@toolshield/core';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import { ObjectMemo } from './object-memo.js';

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
  /** What each thrown object was classified as. */
  private readonly classified = new ObjectMemo<ToolError>('toolshield.classifiedAs');
  /** What each classification was made from. */
  private readonly originals = new ObjectMemo<{ readonly error: unknown }>(
    'toolshield.classifiedFrom',
  );

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
    if (toolError !== error) this.originals.set(toolError, { error });
    return toolError;
  }

  /** The error `error` was classified from, or `error` itself (a policy's own error, say). */
  original(error: unknown): unknown {
    const made = error instanceof Object ? this.originals.get(error) : undefined;
    return made === undefined ? error : made.error;
  }
}

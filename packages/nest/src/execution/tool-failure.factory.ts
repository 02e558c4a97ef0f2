import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type Clock,
  type ToolCallContext,
  type ToolError,
  type ToolFailure,
  createRedactor,
  type Redactor,
} from '@toolshield/core';
import {
  createToolFailure,
  type FailureSanitizer,
  createFailureSanitizer,
  hasSideEffects,
} from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import type { ToolCallState } from './tool-call-state.js';
import { ToolErrorClassifier } from './tool-error-classifier.js';

/** What the factory needs to know about the call that failed. */
export interface FailedCall {
  readonly tool: string;
  readonly callId: string;
  readonly attempts: number;
  readonly retryMax: number;
  readonly startedAt: number;
  /** The retry budget withheld a retry of the call. */
  readonly retriesWithheld?: boolean;
  /**
   * The tool ran and has side effects (neither idempotent nor read-only): a failure after its
   * request may have left says it may have taken effect. Default `false` (nothing ran).
   */
  readonly sideEffects?: boolean;
  /** The call's idempotency key, carried by a failure that may have taken effect. */
  readonly idempotencyKey?: string;
}

/**
 * What a failure needs to know of a call that ran: whether its tool has side effects, and
 * the call's idempotency key. Nothing for a call that never ran (no state).
 *
 * @internal
 */
export function effectFacts(
  call: ToolCallContext | undefined,
  state: ToolCallState | undefined,
): Pick<FailedCall, 'sideEffects' | 'idempotencyKey'> {
  if (state === undefined) return {};
  return { sideEffects: hasSideEffects(state.tool.options), idempotencyKey: call?.idempotencyKey };
}

/** Error types that point at a bug in the tool rather than at the world: logged with the stack. */
const BUG_TYPES: ReadonlySet<ToolError['type']> = new Set(['internal', 'invalid_output']);

/**
 * Turns anything thrown into the `ToolFailure` the model reads, and logs it for developers
 * (with the stack, for bugs) under the call id. The model never sees a stack. Its
 * {@link ToolFailureFactory.sanitizer} is the one every outgoing text goes through: failures
 * here, events on their way out of the event bus.
 */
@Injectable()
export class ToolFailureFactory {
  private readonly logger = new Logger('ToolShield');
  private readonly redactor: Redactor;
  /** Redacts, drops stack frames and caps, in that order, whatever leaves a call. */
  readonly sanitizer: FailureSanitizer;

  constructor(
    private readonly classifier: ToolErrorClassifier,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.redactor = createRedactor(options.redactPatterns);
    this.sanitizer = createFailureSanitizer({ redactor: this.redactor });
  }

  fromError(error: unknown, call: FailedCall): ToolFailure {
    const toolError = this.classifier.classify(error);
    this.log(toolError, error, call);
    return createToolFailure(
      toolError,
      {
        tool: call.tool,
        callId: call.callId,
        retryCount: Math.max(0, call.attempts - 1),
        retryMax: call.retryMax,
        retriesWithheld: call.retriesWithheld,
        durationMs: this.clock.now() - call.startedAt,
        sideEffects: call.sideEffects ?? false,
        idempotencyKey: call.idempotencyKey,
      },
      { sanitizer: this.sanitizer },
    );
  }

  /**
   * Logs the failure under its call id: bugs at `error` with the stack, the rest at `debug`.
   * Nothing is formatted or redacted for a level the application's logger does not print
   * (reading an error's `stack` formats it, and redacting it is the dearest part of a failure).
   */
  private log(toolError: ToolError, original: unknown, call: FailedCall): void {
    const bug = BUG_TYPES.has(toolError.type);
    if (!Logger.isLevelEnabled(bug ? 'error' : 'debug')) return;
    const line = `Tool "${call.tool}" call ${call.callId} failed (${toolError.type}): ${this.redactor.redactText(toolError.message)}`;
    if (bug) {
      const stack = stackOf(original) ?? toolError.stack;
      this.logger.error(line, stack === undefined ? undefined : this.redactor.redactText(stack));
    } else {
      this.logger.debug(line);
    }
  }
}

/** The stack the thrown value carries: an error's, or a thrown `{ stack }` object's. */
function stackOf(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  try {
    const stack = (thrown as { stack?: unknown }).stack;
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}

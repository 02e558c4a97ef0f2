import { TOOL_ERROR_TYPE_TRAITS, type ToolErrorType } from '../../errors/index.js';
import type { ToolFailure } from '../../results/index.js';

/** What the agent loop knows about a failure it reports on a call's behalf. */
export interface SynthesizedFailureInit {
  readonly tool: string;
  readonly callId: string;
  readonly errorType: ToolErrorType;
  /** One sentence for the model. */
  readonly error: string;
  readonly suggestions?: readonly string[];
  /** Overrides the error type's `recoverable` (an interrupted call that is safe to repeat). */
  readonly recoverable?: boolean;
  /** `'unknown'`: the call may have taken effect (`ToolFailure.effect`). */
  readonly effect?: 'unknown';
  /** Attempts made: 0 when the call never started (the default). */
  readonly attempts?: number;
}

/**
 * A complete `ToolFailure` for a call the executor did not answer (not run, malformed,
 * interrupted). `metadata.synthesized` tells it apart from failures the executor produced.
 */
export function synthesizeFailure(init: SynthesizedFailureInit): ToolFailure {
  return {
    success: false,
    tool: init.tool,
    callId: init.callId,
    error: init.error,
    errorType: init.errorType,
    recoverable: init.recoverable ?? TOOL_ERROR_TYPE_TRAITS[init.errorType].recoverable,
    ...(init.effect === undefined ? {} : { effect: init.effect }),
    retryCount: 0,
    retryMax: 0,
    suggestions: init.suggestions ?? [],
    metadata: { attempts: init.attempts ?? 0, durationMs: 0, synthesized: true },
  };
}

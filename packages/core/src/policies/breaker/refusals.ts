import { CircuitOpenError } from '../../errors/circuit-open.error.js';
import type { CircuitState } from '../../events/tool-event.js';
import type { BreakerStateMachine } from './breaker-state-machine.js';
import type { HalfOpenTrials } from './half-open-trials.js';

/** The states in which a breaker may refuse calls. */
type RefusingState = Exclude<CircuitState, 'closed'>;

/** What a refused call is told, by the state that refused it. */
const REFUSAL_MESSAGES: Readonly<Record<RefusingState | 'disposed', string>> = {
  open: 'The circuit breaker is open after repeated failures',
  isolated: 'The circuit breaker is isolated until it is closed by hand',
  half_open: 'The circuit breaker is half-open and its trial calls are running',
  disposed: 'The circuit breaker was shut down',
};

/**
 * When one breaker refuses calls (open, isolated, half-open with every trial slot taken, or
 * shut down) and the `CircuitOpenError` it refuses them with (`retryAfterMs` = time until
 * half-open, while open). Building an `Error` is most of what a refusal costs, so they skip
 * the stack, their metadata is built once per state (frozen, so it is sanitised once too),
 * and {@link Refusals.ofPeriod} gives one error for every refusal of a period.
 *
 * @internal
 */
export class Refusals {
  private metadataOf: Readonly<{ breakerKey: string; state: CircuitState }> | undefined;
  private shared: { epoch: number; error: CircuitOpenError } | undefined;
  private readonly untilHalfOpen = (): number => this.machine.untilHalfOpen();

  constructor(
    private readonly tool: string,
    private readonly key: string,
    private readonly machine: BreakerStateMachine,
    private readonly trials: HalfOpenTrials,
  ) {}

  /** A new error for a call refused now, or undefined when calls go through. */
  now(disposed: boolean): CircuitOpenError | undefined {
    if (disposed) return this.create('disposed', undefined);
    if (!this.refusing()) return undefined;
    const state = this.machine.state as RefusingState;
    return this.create(state, state === 'open' ? this.untilHalfOpen() : undefined);
  }

  /**
   * Like {@link Refusals.now}, but the one error every refusal of the current period shares;
   * while open, its `retryAfterMs` is read from the clock each time.
   */
  ofPeriod(disposed: boolean): CircuitOpenError | undefined {
    if (disposed || !this.refusing()) return this.now(disposed);
    const { epoch } = this.machine;
    if (this.shared?.epoch !== epoch) {
      const error = this.now(false) as CircuitOpenError;
      if (this.machine.state === 'open')
        Object.defineProperty(error, 'retryAfterMs', { get: this.untilHalfOpen, enumerable: true });
      this.shared = { epoch, error };
    }
    return this.shared.error;
  }

  /** The error of a trial refused because the shared trial slots are taken. */
  trialsTaken(): CircuitOpenError {
    return this.create('half_open', undefined);
  }

  /** Whether calls are refused now (disposed aside). */
  private refusing(): boolean {
    const { state } = this.machine;
    return state !== 'closed' && (state !== 'half_open' || this.trials.full);
  }

  private create(reason: RefusingState | 'disposed', retryAfterMs?: number): CircuitOpenError {
    return new CircuitOpenError(REFUSAL_MESSAGES[reason], {
      captureStack: false,
      toolName: this.tool,
      retryAfterMs,
      metadata: this.metadata(this.machine.state),
    });
  }

  private metadata(state: CircuitState): Readonly<Record<string, unknown>> {
    if (this.metadataOf?.state !== state)
      this.metadataOf = Object.freeze({ breakerKey: this.key, state });
    return this.metadataOf;
  }
}

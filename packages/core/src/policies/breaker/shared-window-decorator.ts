import type { OpeningRuleCounts } from './opening-rule.js';
import type { SharedBreakerWindow } from './shared-breaker-window.js';

/**
 * What a breaker adds to its own decisions when a {@link SharedBreakerWindow} (the Redis
 * store's, say) shares them with other instances: the counts it reports and the others'
 * counts it adds to its opening decision, the hold on its calls while the shared window
 * confirms a failure, and the shared trial slots of a half-open period.
 *
 * @internal
 */
export class SharedWindowDecorator {
  /** The shared window's confirmation of this instance's latest failure, while it runs. */
  private confirming: PromiseLike<void> | undefined;

  constructor(
    private readonly shared: SharedBreakerWindow,
    private readonly key: string,
    private readonly maxTrials: number,
  ) {}

  /** Settles when the latest failure is confirmed; undefined when none is being confirmed. */
  get confirmation(): PromiseLike<void> | undefined {
    return this.confirming;
  }

  /** Reports an outcome counted while closed; a failure holds calls until it is confirmed. */
  count(failed: boolean): void {
    const confirming = this.shared.count(this.key, failed);
    if (confirming === undefined) return;
    this.confirming = confirming;
    const done = (): void => {
      if (this.confirming === confirming) this.confirming = undefined;
    };
    void Promise.resolve(confirming).then(done, done);
  }

  /** `local` with the other instances' last known counts added. */
  withRemote(local: OpeningRuleCounts): OpeningRuleCounts {
    const remote = this.shared.remote(this.key);
    return {
      successes: local.successes + (remote?.successes ?? 0),
      failures: local.failures + (remote?.failures ?? 0),
      run: local.run,
    };
  }

  /** Takes one of the shared trial slots: true when the call may run. */
  acquireTrial(): Promise<boolean> {
    return this.shared.acquireTrial(this.key, this.maxTrials);
  }

  /** A trial succeeded: see {@link SharedBreakerWindow.trialSucceeded}. */
  trialSucceeded(): PromiseLike<boolean> | undefined {
    return this.shared.trialSucceeded?.(this.key, this.maxTrials);
  }

  /** Gives a shared trial slot back. */
  releaseTrial(): void {
    this.shared.releaseTrial(this.key);
  }
}

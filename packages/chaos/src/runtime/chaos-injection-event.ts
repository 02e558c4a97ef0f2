import type { ChaosInjectedEvent } from '@toolshield/core/events';

/**
 * A `chaos.injected` event as the controller emits it: the core event with the attempt it
 * hit and `chaos: true`, so it fits the executor's event stream and stays recognisable.
 *
 * @publicApi
 */
export interface ChaosInjectionEvent extends ChaosInjectedEvent {
  readonly rule: string;
  readonly attempt: number;
  readonly chaos: true;
}

/** @publicApi */
export type ChaosInjectionListener = (event: ChaosInjectionEvent) => void;

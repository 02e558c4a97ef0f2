import {
  UPSTREAM_ROUTES,
  type RoutePlan,
  type UpstreamBehaviour,
  type UpstreamRoute,
} from './upstream-behaviour.js';

/**
 * The header naming the run a request belongs to: the fixture upstream answers it by that
 * run's plan. The sample agent's web tools send their call's run id in it.
 */
export const RUN_ID_HEADER = 'x-run-id';

const OK: UpstreamBehaviour = { kind: 'ok' };

/** One route's plan being played: the queued behaviours, then `then`. */
class RouteState {
  private queue: UpstreamBehaviour[];
  private readonly then: UpstreamBehaviour;

  constructor(plan: RoutePlan) {
    this.queue = [...(plan.next ?? [])];
    this.then = plan.then ?? OK;
  }

  take(): UpstreamBehaviour {
    return this.queue.shift() ?? this.then;
  }
}

/**
 * The fixture upstream's plans: one per route for every request, and one per route for each
 * run that set its own, which only that run's requests (those naming it in
 * {@link RUN_ID_HEADER}) play. A run's route without a plan of its own plays the shared one,
 * so runs started together never take each other's 429s or 503s.
 */
export class RoutePlans {
  private shared = new Map<UpstreamRoute, RouteState>();
  private readonly byRun = new Map<string, Map<UpstreamRoute, RouteState>>();
  private readonly counts = new Map<UpstreamRoute, number>();

  /** Replaces `route`'s plan: `run`'s own when given, else the shared one. */
  set(route: UpstreamRoute, plan: RoutePlan, run?: string): void {
    if (run === undefined) {
      this.shared.set(route, new RouteState(plan));
      return;
    }
    const plans = this.byRun.get(run) ?? new Map<UpstreamRoute, RouteState>();
    this.byRun.set(run, plans.set(route, new RouteState(plan)));
  }

  /** How to answer the next request on `route` (from `run`, when it names one). */
  take(route: UpstreamRoute, run?: string): UpstreamBehaviour {
    this.counts.set(route, this.hits(route) + 1);
    const state =
      (run === undefined ? undefined : this.byRun.get(run)?.get(route)) ?? this.shared.get(route);
    return state?.take() ?? OK;
  }

  /** Drops the plans `run` set (its run ended). */
  forget(run: string): void {
    this.byRun.delete(run);
  }

  /** Every plan back to `ok`, the runs' own dropped. */
  reset(): void {
    this.shared = new Map();
    this.byRun.clear();
  }

  /** Requests served on `route` so far, every run's. */
  hits(route: UpstreamRoute): number {
    return this.counts.get(route) ?? 0;
  }

  /** Whether `name` is one of the upstream's routes. */
  static isRoute(name: string | undefined): name is UpstreamRoute {
    return (UPSTREAM_ROUTES as readonly (string | undefined)[]).includes(name);
  }
}

import { lastValueFrom, type Observable } from 'rxjs';

/**
 * Runs the rest of a tool's pipeline (`next.handle()`) as a promise. Each call subscribes
 * anew, which re-runs the inner interceptors, the pipes and the method: one attempt.
 *
 * @internal
 */
export function runInner<T>(handle: () => Observable<T>): Promise<T | undefined> {
  return lastValueFrom(handle(), { defaultValue: undefined });
}

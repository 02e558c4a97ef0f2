/**
 * Types of the chaos matchers on Jest's `expect` (`@jest/globals` and the global one). It is
 * kept out of the barrel so projects without Jest never need the `expect` package; load it
 * once per test program: `import '@toolshield/chaos/jest';` (or `import type {} from ...`).
 */
import type { ToolErrorType } from '@toolshield/core';
// Brings Jest's `expect` typings (an optional peer dependency) into the program, so the block
// below augments them.
import type {} from 'expect';

declare module 'expect' {
  // Merged declarations must repeat Jest's type parameters, `T` included.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /** The value is a `ToolFailure` payload, of `type` when given. */
    toBeToolFailure(type?: ToolErrorType): R;
    /** The value is a `ToolResult` payload. */
    toBeToolResult(): R;
    /** The call was retried exactly `retries` times (`retryCount`, or `metadata.attempts - 1`). */
    toHaveRetried(retries: number): R;
    /** The value was injected by chaos (marker, `metadata.chaos`, or a chaos event). */
    toBeChaosInjected(): R;
  }
}

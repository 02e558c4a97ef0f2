/**
 * A reason the service cannot start that the operator can fix: its message is one line
 * saying what is wrong and what to do, printed as it is (no stack).
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

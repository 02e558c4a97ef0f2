/** What `action` throws; fails the test when it throws nothing. Shared by specs. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

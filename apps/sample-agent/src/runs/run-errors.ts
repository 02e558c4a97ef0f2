/** A run request the app refuses (`400`): an empty task, an unknown scenario. */
export class InvalidRunRequestError extends Error {
  override readonly name = 'InvalidRunRequestError';
}

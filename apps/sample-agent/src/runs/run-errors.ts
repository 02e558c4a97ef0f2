/** A run request the app refuses (`400`): an empty task, an unknown scenario. */
export class InvalidRunRequestError extends Error {
  override readonly name = 'InvalidRunRequestError';
}

/** A decision or a filter the approvals API refuses (`400`): no `decision`, an unknown status. */
export class InvalidApprovalRequestError extends Error {
  override readonly name = 'InvalidApprovalRequestError';
}

/** A chaos rule or settings body that cannot be used, with the reason (answered with a 400). */
export class InvalidChaosRuleError extends Error {
  override readonly name = 'InvalidChaosRuleError';
}

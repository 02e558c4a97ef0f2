import { StartupError } from '../process/startup-error.js';

/** Payments above this amount wait for a person's approval, unless `PAYMENT_APPROVAL_ABOVE` says otherwise. */
export const DEFAULT_PAYMENT_APPROVAL_ABOVE = 1_000;

/** The environment variables of the payment approval. */
export interface PaymentApprovalEnvironment {
  /** Payments above this amount (in the invoice's currency) need approval; default 1000. */
  readonly PAYMENT_APPROVAL_ABOVE?: string;
  /** How long an approval waits for a decision before it expires, in ms; default 24 h. */
  readonly APPROVAL_TTL_MS?: string;
}

/** How long an approval waits before it expires unanswered, unless `APPROVAL_TTL_MS` says otherwise. */
export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1_000;

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) {
    throw new StartupError(`${name} must be a number of 0 or more, got ${JSON.stringify(value)}.`);
  }
  return number;
}

/** The amount above which `pay_invoice` waits for approval; throws {@link StartupError} for a bad value. */
export function paymentApprovalAbove(env: PaymentApprovalEnvironment = process.env): number {
  return positiveNumber(
    'PAYMENT_APPROVAL_ABOVE',
    env.PAYMENT_APPROVAL_ABOVE,
    DEFAULT_PAYMENT_APPROVAL_ABOVE,
  );
}

/** How long an approval waits, in ms; throws {@link StartupError} for a bad value. */
export function approvalTtlMs(env: PaymentApprovalEnvironment = process.env): number {
  const ttl = positiveNumber('APPROVAL_TTL_MS', env.APPROVAL_TTL_MS, DEFAULT_APPROVAL_TTL_MS);
  if (ttl < 1)
    throw new StartupError(
      `APPROVAL_TTL_MS must be 1 or more, got ${JSON.stringify(env.APPROVAL_TTL_MS)}.`,
    );
  return ttl;
}

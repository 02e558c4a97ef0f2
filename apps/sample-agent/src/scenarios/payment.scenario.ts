import type { InvoicePayments } from '../tools/payments.tools.js';
import type { ScriptedTask } from '../agent/scripted-model.js';
import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

/** The plan of one payment: pay, and if it may have been made, look it up instead of paying again. */
function payment(invoice: { invoice: string; amount: number; currency: string }): ScriptedTask {
  return {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the payment',
        approaches: [{ name: 'pay_invoice', arguments: invoice }],
        report: (output) => `Paid ${invoice.invoice} (${(output as { id: string }).id}).`,
        // A payment that may have been made is looked up, never made again.
        verify: {
          call: { name: 'find_payments', arguments: { invoice: invoice.invoice } },
          effect: (output) => (output as InvoicePayments).payments[0],
        },
      },
    ],
  };
}

/**
 * A side effect: one invoice paid through the upstream's payment API (about a second per
 * payment). If the run is interrupted mid-payment and resumed, the payment is made again
 * with the interrupted call's idempotency key, so the upstream pays once.
 */
export const payInvoiceScenario: Scenario = {
  name: 'pay-invoice',
  title: 'A payment: a non-idempotent call with an idempotency key',
  task: 'Pay invoice INV-1042: 120 EUR.',
  recoverable: true,
  script: payment({ invoice: 'INV-1042', amount: 120, currency: 'EUR' }),
};

/**
 * A payment above the approval threshold (`PAYMENT_APPROVAL_ABOVE`, default 1000): the run
 * waits, holding no worker, until a person approves or declines it (`POST /api/approvals/:id`,
 * the dashboard's buttons) or the approval expires; approved, the payment is made once.
 */
export const payLargeInvoiceScenario: Scenario = {
  name: 'pay-large-invoice',
  title: 'A payment a person approves first',
  task: 'Pay invoice INV-2048: 4800 EUR.',
  recoverable: true,
  script: payment({ invoice: 'INV-2048', amount: 4_800, currency: 'EUR' }),
};

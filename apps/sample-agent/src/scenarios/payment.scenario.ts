import type { InvoicePayments } from '../tools/payments.tools.js';
import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

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
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the payment',
        approaches: [
          { name: 'pay_invoice', arguments: { invoice: 'INV-1042', amount: 120, currency: 'EUR' } },
        ],
        report: (output) => `Paid INV-1042 (${(output as { id: string }).id}).`,
        // A payment that may have been made is looked up, never made again.
        verify: {
          call: { name: 'find_payments', arguments: { invoice: 'INV-1042' } },
          effect: (output) => (output as InvoicePayments).payments[0],
        },
      },
    ],
  },
};

import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, ToolCall, type ToolCallContext } from '@toolshield/nest';
import { IsIn, IsNumber, IsPositive, Matches } from 'class-validator';
import type { Payment } from '../upstream/payments.js';
import { paymentApprovalAbove } from './payment-approval.js';
import { getJson } from './web/get-json.js';
import { WebUpstream } from './web/web-upstream.js';

/** Arguments of `pay_invoice`. */
export class PayInvoiceArgs {
  @Matches(/^INV-\d{1,10}$/) invoice!: string;
  @IsNumber() @IsPositive() amount!: number;
  @IsIn(['EUR', 'USD', 'GBP']) currency!: string;
}

/** Arguments of `find_payments`. */
export class FindPaymentsArgs {
  @Matches(/^INV-\d{1,10}$/) invoice!: string;
}

/** What `find_payments` answers: the payments the upstream made for the invoice. */
export interface InvoicePayments {
  readonly invoice: string;
  readonly payments: readonly Payment[];
}

/**
 * Pays an invoice through the fixture upstream's payment API: a side effect that must not
 * happen twice, so the tool is not idempotent (toolshield never retries it) and it sends
 * the call's `idempotencyKey` as the `Idempotency-Key` header. When the call is made again
 * after a crash with the same key, the upstream answers with the first payment. When a payment
 * fails after its request may have left (a timeout), the model is told it may have been made:
 * `find_payments` is the read that says whether it was. A payment above
 * `PAYMENT_APPROVAL_ABOVE` waits for a person's approval first (`needsApproval`).
 */
@Injectable()
export class PaymentTools {
  constructor(private readonly upstream: WebUpstream) {}

  @Tool({
    name: 'pay_invoice',
    description: 'Pays an invoice; returns the payment. Never call it twice for one invoice.',
    timeoutMs: 10_000,
    // A person approves a payment above PAYMENT_APPROVAL_ABOVE (default 1000) before it is made.
    needsApproval: (args: PayInvoiceArgs) => args.amount > paymentApprovalAbove(),
    annotations: { destructiveHint: false, openWorldHint: true },
  })
  async payInvoice(
    @ToolArgs() args: PayInvoiceArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<Payment> {
    return (await getJson(`${await this.upstream.url()}/payments`, call.signal, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
      },
      body: JSON.stringify({ invoice: args.invoice, amount: args.amount, currency: args.currency }),
    })) as Payment;
  }

  @Tool({
    name: 'find_payments',
    description: 'Lists the payments made for an invoice: whether it is paid.',
    idempotent: true,
    timeoutMs: 10_000,
    annotations: { readOnlyHint: true, openWorldHint: true },
  })
  async findPayments(
    @ToolArgs() args: FindPaymentsArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<InvoicePayments> {
    const query = new URLSearchParams({ invoice: args.invoice });
    return (await getJson(
      `${await this.upstream.url()}/payments?${query}`,
      call.signal,
    )) as InvoicePayments;
  }
}

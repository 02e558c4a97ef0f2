import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long the fixture's payment API takes to answer, like a real one. */
export const PAYMENT_LATENCY_MS = 1_000;

/** A payment the fixture upstream made: one effect. */
export interface Payment {
  readonly id: string;
  readonly invoice: string;
  readonly amount: number;
  readonly currency: string;
  /** The `Idempotency-Key` it was made with, if any. */
  readonly idempotencyKey?: string;
}

/** What `POST /payments` takes. */
interface PaymentRequest {
  readonly invoice: string;
  readonly amount: number;
  readonly currency: string;
}

function isPaymentRequest(value: unknown): value is PaymentRequest {
  const body = value as Partial<PaymentRequest> | null;
  return (
    typeof body?.invoice === 'string' &&
    typeof body.amount === 'number' &&
    typeof body.currency === 'string'
  );
}

function send(response: ServerResponse, status: number, body: unknown, replayed = false): void {
  if (response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
  });
  response.end(JSON.stringify(body));
}

/**
 * The fixture upstream's payment API, honouring `Idempotency-Key` the way payment APIs do:
 * the effect happens when the request arrives (a client that gives up or dies mid-request
 * does not undo it), the answer comes after {@link PAYMENT_LATENCY_MS}, and a request with a
 * key already used gets the first request's answer (`Idempotent-Replayed: true`) without a
 * second effect; the same key with a different body is refused with 422.
 */
export class PaymentsApi {
  /** Every effect, in order. */
  readonly payments: Payment[] = [];
  /** Requests received, repeats included. */
  requests = 0;
  private readonly byKey = new Map<string, { body: string; answer: Promise<Payment> }>();

  /**
   * @param onPayment hears of each effect as it happens (before the answer), so a test can
   *   interrupt the client while its payment is made but not yet answered.
   */
  constructor(
    private readonly latencyMs = PAYMENT_LATENCY_MS,
    private readonly onPayment: (payment: Payment) => void = () => undefined,
  ) {}

  /** The payments made for `invoice`, in order. */
  forInvoice(invoice: string): Payment[] {
    return this.payments.filter((payment) => payment.invoice === invoice);
  }

  /** Serves `POST /payments` with its JSON body. */
  async handle(request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    this.requests += 1;
    const parsed: unknown = JSON.parse(body || 'null');
    if (!isPaymentRequest(parsed)) {
      return send(response, 400, { error: 'Expected { invoice, amount, currency }.' });
    }
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const first = key === undefined ? undefined : this.byKey.get(key);
    if (first && first.body !== body) {
      return send(response, 422, {
        error: `Idempotency-Key ${key} was used with another request.`,
      });
    }
    if (first) return send(response, 201, await first.answer, true);
    const payment: Payment = {
      id: `pay_${this.payments.length + 1}`,
      invoice: parsed.invoice,
      amount: parsed.amount,
      currency: parsed.currency,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    this.payments.push(payment);
    this.onPayment(payment);
    // Unref'd: an answer nobody waits for any more keeps no process alive.
    const answer = new Promise<Payment>((resolve) =>
      setTimeout(() => resolve(payment), this.latencyMs).unref(),
    );
    if (key !== undefined) this.byKey.set(key, { body, answer });
    send(response, 201, await answer);
  }
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentRunnerFactory } from '@toolshield/nest';
import { ScriptedModel } from '../../src/agent/scripted-model.js';
import { payInvoiceScenario } from '../../src/scenarios/payment.scenario.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import { createSampleApp } from '../fixtures/sample-app.js';

describe('pay_invoice timing out after the upstream took the payment', () => {
  let upstream: FixtureUpstream;
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  let paid: Promise<void>;
  const upstreamUrl = process.env['UPSTREAM_URL'];

  beforeAll(async () => {
    let tookPayment = () => undefined as void;
    paid = new Promise<void>((resolve) => (tookPayment = resolve));
    // The payment is made when the request arrives; its answer is a minute away, far past
    // pay_invoice's 10 s timeout.
    upstream = await startFixtureUpstream({ paymentLatencyMs: 60_000, onPayment: tookPayment });
    process.env['UPSTREAM_URL'] = upstream.url;
    app = await createSampleApp();
  });

  afterAll(async () => {
    await app?.close();
    await upstream?.close();
    if (upstreamUrl === undefined) delete process.env['UPSTREAM_URL'];
    else process.env['UPSTREAM_URL'] = upstreamUrl;
  });

  it('is followed by a read of the invoice, not a second payment, and the run reports the payment', async () => {
    const model = new ScriptedModel(payInvoiceScenario.script);
    const runner = app.moduleRef.get(AgentRunnerFactory).create({ model: model.chat });
    const running = runner.run({ conversationId: 'pay', input: payInvoiceScenario.task });
    await paid;
    const result = await app.inVirtualTime(running);

    const assistant = result.messages.filter((message) => message.role === 'assistant');
    expect(assistant.map((message) => message.toolCalls?.map((call) => call.name))).toEqual([
      ['pay_invoice'],
      ['find_payments'],
      ['attempt_completion'],
    ]);
    expect(assistant[1]?.content).toMatch(
      /^CONTINUE: pay_invoice failed \(timeout, not recoverable, may have taken effect\): .+\. Trying find_payments instead\.$/,
    );
    const payment = result.messages.find(
      (message) => message.role === 'tool' && message.name === 'pay_invoice',
    );
    expect(JSON.parse(payment?.content ?? '{}')).toMatchObject({
      errorType: 'timeout',
      recoverable: false,
      effect: 'unknown',
      suggestions: [
        'Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ],
    });
    expect(upstream.paymentRequests).toBe(1);
    expect(upstream.payments).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Paid INV-1042 (pay_1).' });
  });
});

import { afterEach } from '@jest/globals';
import { Injectable, Logger, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type ToolCallContext, type ToolCatalog } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import {
  Tool,
  ToolArgs,
  ToolCall,
  ToolExecutor,
  ToolRegistry,
  ToolShieldModule,
  TOOLSHIELD_CLOCK,
} from '@toolshield/nest';
import { IsInt, IsString, Min } from 'class-validator';

class PayInvoiceArgs {
  @IsString() invoiceId!: string;
  @IsInt() @Min(1) amount!: number;
}

/** One payment the upstream took. */
export interface Payment {
  readonly invoiceId: string;
  readonly amount: number;
  readonly callId: string;
  readonly idempotencyKey?: string;
}

/** A payment tool that needs a person's approval above 1,000, and a read tool that never does. */
@Injectable()
export class PaymentTools {
  readonly payments: Payment[] = [];

  @Tool({
    name: 'pay_invoice',
    description: 'Pays an invoice.',
    needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000,
  })
  pay(@ToolArgs() args: PayInvoiceArgs, @ToolCall() call: ToolCallContext) {
    this.payments.push({
      invoiceId: args.invoiceId,
      amount: args.amount,
      callId: call.callId,
      idempotencyKey: call.idempotencyKey,
    });
    return { paid: args.invoiceId, amount: args.amount };
  }

  @Tool({ name: 'list_invoices', description: 'Lists unpaid invoices.', idempotent: true })
  list() {
    return [{ invoiceId: 'inv_9', amount: 1_200 }];
  }
}

@Module({ imports: [ToolShieldModule.forRoot({ isGlobal: true })], providers: [PaymentTools] })
class PaymentAppModule {}

/** A started payment application: its executor, catalog, clock and tools (to count payments). */
export interface PaymentApp {
  readonly app: TestingModule;
  readonly clock: VirtualClock;
  readonly catalog: ToolCatalog;
  readonly executor: ToolExecutor;
  readonly tools: PaymentTools;
}

/** The payment tools in a Nest application on a virtual clock. */
export async function startPaymentApp(): Promise<PaymentApp> {
  const clock = new VirtualClock();
  const app = await Test.createTestingModule({ imports: [PaymentAppModule] })
    .overrideProvider(TOOLSHIELD_CLOCK)
    .useValue(clock)
    .compile();
  app.useLogger(false);
  Logger.overrideLogger(false);
  await app.init();
  const executor = app.get(ToolExecutor);
  const catalog: ToolCatalog = { registry: app.get(ToolRegistry), executor };
  return { app, clock, catalog, executor, tools: app.get(PaymentTools) };
}

/** For a spec file: starts the payment application, and closes each test's after it. */
export function usePaymentApp(): () => Promise<PaymentApp> {
  let running: PaymentApp | undefined;
  afterEach(async () => {
    await running?.app.close();
    running = undefined;
  });
  return async () => (running = await startPaymentApp());
}

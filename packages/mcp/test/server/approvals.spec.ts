import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Logger, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolArgs, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { IsInt, IsString, Min } from 'class-validator';
import { McpToolServer, ToolShieldMcpModule } from '../../src/index.js';

class PayInvoiceArgs {
  @IsString() invoiceId!: string;
  @IsInt() @Min(1) amount!: number;
}

@Injectable()
class PaymentTools {
  readonly payments: string[] = [];

  @Tool({
    name: 'pay_invoice',
    description: 'Pays an invoice.',
    needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000,
  })
  pay(@ToolArgs() args: PayInvoiceArgs) {
    this.payments.push(args.invoiceId);
    return { paid: args.invoiceId };
  }
}

@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldMcpModule.forRoot()],
  providers: [PaymentTools],
})
class PaymentModule {}

let app: INestApplicationContext | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The official MCP SDK client on the server, answering elicitations with `answer` if given. */
async function connect(answer?: (message: string) => ElicitResult) {
  Logger.overrideLogger(false);
  app = await NestFactory.createApplicationContext(PaymentModule, {
    logger: false,
    abortOnError: false,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.get(McpToolServer).connect(serverSide);
  const asked: string[] = [];
  const client = new Client(
    { name: 'spec-client', version: '1.0.0' },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return answer(request.params.message);
    });
  }
  await client.connect(clientSide);
  const pay = (amount: number) =>
    client.callTool({
      name: 'pay_invoice',
      arguments: { invoiceId: 'inv_9', amount },
    }) as Promise<CallToolResult>;
  return { client, pay, asked, tools: app.get(PaymentTools), executor: app.get(ToolExecutor) };
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('McpToolServer: a call that needs approval', () => {
  it('asks the client through elicitation, and runs the call once when the person accepts', async () => {
    const { pay, asked, tools } = await connect(() => ({ action: 'accept', content: {} }));

    const result = await pay(1_200);

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ paid: 'inv_9' });
    expect(tools.payments).toEqual(['inv_9']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('pay_invoice');
    expect(asked[0]).toContain('"amount":1200');
  });

  it('answers a decline with the denial the model reads, and pays nothing', async () => {
    const { pay, tools } = await connect(() => ({
      action: 'decline',
      content: { reason: 'duplicate invoice' },
    }));

    const result = await pay(1_200);

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'A person declined: duplicate invoice. Do not call it again with these arguments.',
    );
    expect(tools.payments).toEqual([]);
  });

  it('without elicitation, answers isError: approval is pending, and how it is resolved', async () => {
    const { pay, tools, executor } = await connect();

    const result = await pay(1_200);

    expect(result.isError).toBe(true);
    const [pending] = await executor.pendingApprovals();
    if (pending === undefined) throw new Error('nothing waits');
    expect(textOf(result)).toContain(pending.id);
    expect(textOf(result)).toMatch(/resolveApproval/);
    expect(tools.payments).toEqual([]);
    await executor.resolveApproval(pending.id, { approved: true });
    expect(tools.payments).toEqual(['inv_9']);
  });

  it('asks nobody for a call its policy waives', async () => {
    const { pay, asked, tools } = await connect(() => ({ action: 'accept', content: {} }));
    expect((await pay(20)).isError).toBeFalsy();
    expect(asked).toEqual([]);
    expect(tools.payments).toEqual(['inv_9']);
  });
});

import { Injectable } from '@nestjs/common';
import {
  Retryable,
  Tool,
  ToolArgs,
  ToolCall,
  NotFoundError,
  type ToolCallContext,
} from '@toolshield/nest';
import { IsString, Length } from 'class-validator';

/** Arguments of `get_exchange_rate`. */
export class GetExchangeRateArgs {
  @IsString() @Length(3, 3) from!: string;
  @IsString() @Length(3, 3) to!: string;
}

/** What `get_exchange_rate` returns. */
export interface ExchangeRate {
  readonly from: string;
  readonly to: string;
  readonly rate: number;
}

/** Fixed rates against the euro, so the demo prints the same numbers every time. */
const PER_EUR: Readonly<Record<string, number>> = { EUR: 1, USD: 1.08, GBP: 0.85, JPY: 162 };

/** Attempts of every call that the simulated upstream drops before it answers. */
export const DROPPED_ATTEMPTS = 2;

function connectionReset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
}

/**
 * Exchange rates from a simulated, flaky upstream: it resets the connection on the first
 * {@link DROPPED_ATTEMPTS} attempts of every call, deterministically, and answers the next one.
 * Declared `idempotent`, it is retried, as `@Retryable()` says, so the call still succeeds.
 */
@Injectable()
export class ExchangeRateTools {
  @Tool({
    name: 'get_exchange_rate',
    description: 'Exchange rate between two currencies (ISO codes such as EUR, USD, GBP, JPY).',
    idempotent: true,
    annotations: { readOnlyHint: true, openWorldHint: true },
  })
  // Each call fails twice first: with the default budget, 300 runs from 30 clients, 19/34 trips ended as documented, then 0/34.
  @Retryable({
    maxRetries: DROPPED_ATTEMPTS,
    backoff: { baseMs: 200, capMs: 1_000 },
    retryBudget: false,
  })
  getExchangeRate(
    @ToolArgs() args: GetExchangeRateArgs,
    @ToolCall() call: ToolCallContext,
  ): ExchangeRate {
    if (call.attempt <= DROPPED_ATTEMPTS) throw connectionReset();
    const from = args.from.toUpperCase();
    const to = args.to.toUpperCase();
    const unknown = [from, to].find((code) => PER_EUR[code] === undefined);
    if (unknown) {
      throw new NotFoundError(`No rate for currency "${unknown}".`, { toolName: call.toolName });
    }
    return { from, to, rate: Math.round((PER_EUR[to] / PER_EUR[from]) * 10_000) / 10_000 };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import {
  Tool,
  ToolArgs,
  ToolCall,
  TOOLSHIELD_CLOCK,
  sleep,
  type Clock,
  type ToolCallContext,
} from '@toolshield/nest';
import { IsInt, Max, Min } from 'class-validator';

/** Arguments of `wait`. */
export class WaitArgs {
  @IsInt() @Min(1) @Max(10) seconds!: number;
}

/**
 * `wait`: lets time pass before trying again, e.g. when a failure said a service's breaker
 * is open and when to retry. The model decides to wait; nothing is retried for it.
 */
@Injectable()
export class WaitTools {
  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  @Tool({
    name: 'wait',
    description: 'Waits the given number of seconds (1 to 10), e.g. before trying a tool again.',
    timeoutMs: 11_000,
    breaker: false,
    annotations: { readOnlyHint: true },
  })
  async wait(@ToolArgs() args: WaitArgs, @ToolCall() call: ToolCallContext): Promise<string> {
    await sleep(this.clock, args.seconds * 1_000, call.signal);
    return `Waited ${args.seconds} s.`;
  }
}

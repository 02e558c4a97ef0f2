import { Injectable } from '@nestjs/common';
import { DEFAULT_COMPLETION_TOOL, Tool, ToolArgs } from '@toolshield/nest';
import { IsString, Length } from 'class-validator';

/** Arguments of `complete`. */
export class CompleteArgs {
  @IsString() @Length(1, 4_000) answer!: string;
}

/** The tool the model calls to end a run: a terminating tool, so nothing after it runs. */
@Injectable()
export class CompletionTools {
  @Tool({
    name: DEFAULT_COMPLETION_TOOL,
    description:
      'Ends the task with the final answer for the user: what was done, and what failed if anything did.',
  })
  complete(@ToolArgs() args: CompleteArgs): string {
    return args.answer;
  }
}

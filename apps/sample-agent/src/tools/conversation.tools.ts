import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs } from '@toolshield/nest';
import { IsString, Length } from 'class-validator';

/** Arguments of `ask_user`. */
export class AskUserArgs {
  @IsString() @Length(1, 1_000) question!: string;
}

/** Arguments of `attempt_completion`. */
export class AttemptCompletionArgs {
  @IsString() @Length(1, 4_000) result!: string;
}

/** The tools that end a run: both are terminating tools, so nothing after them runs. */
export const TERMINATING_TOOLS = ['complete', 'ask_user', 'attempt_completion'] as const;

/**
 * `ask_user` hands the conversation back to the user with a question; `attempt_completion`
 * ends the task with its result, or with why it cannot be done.
 */
@Injectable()
export class ConversationTools {
  @Tool({
    name: 'ask_user',
    description: 'Asks the user a question and ends the turn until they answer.',
  })
  askUser(@ToolArgs() args: AskUserArgs): string {
    return args.question;
  }

  @Tool({
    name: 'attempt_completion',
    description:
      'Ends the task: the result for the user, or, when it cannot be done, what stopped it.',
  })
  attemptCompletion(@ToolArgs() args: AttemptCompletionArgs): string {
    return args.result;
  }
}

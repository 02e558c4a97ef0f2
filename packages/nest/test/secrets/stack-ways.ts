import { BadRequestException, HttpException } from '@nestjs/common';
import { InvalidInputError, NetworkError } from '@toolshield/core';
import { inspect } from 'node:util';

/** A real V8 stack, frames and all. */
function realStack(): string {
  return new Error('upstream parser blew up').stack ?? '';
}

/** The ways a stack trace rides along with a failure (issue 13): none may reach the model. */
export const STACK_WAYS: readonly { readonly way: string; readonly make: () => unknown }[] = [
  { way: 'error.stack of a plain Error', make: () => new Error('upstream parser blew up') },
  {
    way: 'a stack in issues',
    make: () =>
      new InvalidInputError('Arguments failed validation.', {
        issues: [{ path: 'payload', message: realStack() }],
      }),
  },
  {
    way: 'a stack in ToolError metadata',
    make: () =>
      new NetworkError('The upstream reset the connection.', {
        metadata: { stack: realStack(), detail: realStack(), nested: { trace: realStack() } },
      }),
  },
  {
    way: 'a stack in an HttpException message array',
    make: () => new BadRequestException([realStack(), 'name must be a string']),
  },
  {
    way: 'an HttpException object response with a stack',
    make: () => new HttpException({ message: realStack(), stack: realStack() }, 502),
  },
  { way: 'a thrown { stack } object', make: () => ({ stack: realStack() }) },
  {
    way: 'a stack in the cause chain',
    make: () =>
      new Error('Syncing orders failed', {
        cause: Object.assign(new Error(realStack()), { code: 'ECONNRESET' }),
      }),
  },
  { way: 'a thrown string that is a stack', make: () => realStack() },
  {
    way: 'a message that starts with frames',
    make: () => new Error(`\n${realStack().split('\n').slice(1).join('\n')}`),
  },
  {
    way: 'a JSON-escaped stack in a message',
    make: () => new Error(`upstream said: ${JSON.stringify({ stack: realStack() })}`),
  },
  {
    way: 'util.inspect of an error as the message',
    make: () => new Error(inspect(new Error('inner'))),
  },
];

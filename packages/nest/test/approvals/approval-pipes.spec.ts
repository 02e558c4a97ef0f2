import { afterEach, expect, it } from '@jest/globals';
import { Injectable, UsePipes, type PipeTransform } from '@nestjs/common';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { Tool, ToolArgs } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/** A method pipe written for the one parameter the method declares, as users write them. */
class TrimNotePipe implements PipeTransform {
  transform(value: unknown) {
    const args = value as { note: string };
    return { ...args, note: args.note.trim() };
  }
}

@Injectable()
class NotesTools {
  @Tool({
    name: 'publish_note',
    description: 'Publishes a note.',
    inputSchema: { type: 'object' },
    needsApproval: true,
  })
  @UsePipes(TrimNotePipe)
  publish(@ToolArgs() args: { note: string }) {
    return `published: ${args.note}`;
  }
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

it("a tool that needs approval keeps its method pipes to the parameters it declares (they never see toolshield's call context)", async () => {
  const app = await createToolApp([NotesTools]);
  close = () => app.close();
  const pending = (await app.executor.execute({
    name: 'publish_note',
    arguments: { note: '  hello  ' },
  })) as ToolFailure;
  expect(pending.errorType).toBe('approval_pending');
  const approvalId = pending.approval?.id as string;
  const outcome = (await app.executor.resolveApproval(approvalId, { approved: true })) as ToolResult;
  expect(outcome.output).toBe('published: hello');
});

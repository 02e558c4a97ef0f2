import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, ToolCall, NotFoundError, type ToolCallContext } from '@toolshield/nest';
import { IsString, Length, Matches } from 'class-validator';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotesDirectory } from './notes-directory.js';
import { runIdOf } from './run-scope.js';

const NOTE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const NOTE_NAME_RULE = 'lowercase letters, digits and dashes, at most 64';

/** Arguments of `read_note`. */
export class ReadNoteArgs {
  @Matches(NOTE_NAME, { message: `name: ${NOTE_NAME_RULE}` }) name!: string;
}

/** Arguments of `write_note`. */
export class WriteNoteArgs extends ReadNoteArgs {
  @IsString() @Length(1, 4_000) text!: string;
}

/** Arguments of `append_note`. */
export class AppendNoteArgs extends ReadNoteArgs {
  @IsString() @Length(1, 400) line!: string;
}

/** What the notes tools return. */
export interface Note {
  readonly name: string;
  readonly lines: readonly string[];
}

function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/**
 * Notes kept as text files in the notes directory: real file system calls, real errors. A
 * run's calls see that run's notes only.
 */
@Injectable()
export class NotesTools {
  constructor(private readonly directory: NotesDirectory) {}

  @Tool({
    name: 'read_note',
    description: 'Reads a note by name.',
    idempotent: true,
    annotations: { readOnlyHint: true },
  })
  readNote(@ToolArgs() args: ReadNoteArgs, @ToolCall() call: ToolCallContext): Promise<Note> {
    return this.read(args.name, runIdOf(call));
  }

  @Tool({
    name: 'write_note',
    description: 'Creates a note, or replaces its text.',
    idempotent: true,
    annotations: { destructiveHint: true },
  })
  async writeNote(
    @ToolArgs() args: WriteNoteArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<Note> {
    const runId = runIdOf(call);
    await writeFile(await this.file(args.name, runId), `${args.text.trimEnd()}\n`);
    return this.read(args.name, runId);
  }

  @Tool({
    name: 'append_note',
    description: 'Adds a line to the end of an existing note.',
  })
  async appendNote(
    @ToolArgs() args: AppendNoteArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<Note> {
    const runId = runIdOf(call);
    await this.read(args.name, runId);
    await appendFile(await this.file(args.name, runId), `${args.line.trim()}\n`);
    return this.read(args.name, runId);
  }

  private async read(name: string, runId: string | undefined): Promise<Note> {
    try {
      const text = await readFile(await this.file(name, runId), 'utf8');
      return { name, lines: text.split('\n').filter((line) => line !== '') };
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      throw new NotFoundError(`No note named "${name}"; write_note creates one.`, { cause: error });
    }
  }

  private async file(name: string, runId: string | undefined): Promise<string> {
    return join(await this.directory.path(runId), `${name}.txt`);
  }
}

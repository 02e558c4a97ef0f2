import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, NotFoundError, PermissionDeniedError } from '@toolshield/nest';
import { IsString, Length } from 'class-validator';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { FileSandbox } from './file-sandbox.js';

/** Arguments of `read_file`. */
export class ReadFileArgs {
  @IsString() @Length(1, 300) path!: string;
}

function isErrorCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}

/**
 * Reads text files inside the sandbox. A path that leaves it (`../`, absolute paths
 * elsewhere) is `permission_denied` before anything is read; a missing file `not_found`.
 */
@Injectable()
export class FileTools {
  constructor(private readonly sandbox: FileSandbox) {}

  @Tool({
    name: 'read_file',
    description: 'Reads a text file of the project, by a path relative to the project root.',
    annotations: { readOnlyHint: true },
  })
  async readFile(@ToolArgs() args: ReadFileArgs): Promise<{ path: string; text: string }> {
    const root = await this.sandbox.root();
    const target = resolve(root, args.path);
    const inside = relative(root, target);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw new PermissionDeniedError(`"${args.path}" is outside the project directory.`);
    }
    try {
      return { path: inside, text: await readFile(target, 'utf8') };
    } catch (error) {
      if (isErrorCode(error, 'ENOENT')) {
        throw new NotFoundError(`No file "${inside}" in the project.`, { cause: error });
      }
      throw error;
    }
  }
}

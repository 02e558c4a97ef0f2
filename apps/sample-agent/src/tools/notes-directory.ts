import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory the notes tools keep their files in: a fresh temporary directory per
 * application, created on first use and removed when the application closes. Each run keeps
 * its notes in a directory of its own inside it (so every run starts without notes, whatever
 * the runs before or beside it wrote), removed when the run ends.
 */
@Injectable()
export class NotesDirectory implements OnApplicationShutdown {
  private created: Promise<string> | undefined;

  /** The directory's path (`runId`'s own inside it, when given); creates it on the first call. */
  async path(runId?: string): Promise<string> {
    this.created ??= mkdtemp(join(tmpdir(), 'toolshield-notes-'));
    const root = await this.created;
    if (runId === undefined) return root;
    const own = join(root, 'runs', runId);
    await mkdir(own, { recursive: true });
    return own;
  }

  /** Removes the notes of `runId` (its run ended). */
  async forgetRun(runId: string): Promise<void> {
    if (this.created)
      await rm(join(await this.created, 'runs', runId), { recursive: true, force: true });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.created) await rm(await this.created, { recursive: true, force: true });
  }
}

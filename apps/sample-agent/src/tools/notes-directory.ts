import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory the notes tools keep their files in: a fresh temporary directory per
 * application, created on first use (so every run starts without notes) and removed when the
 * application closes.
 */
@Injectable()
export class NotesDirectory implements OnApplicationShutdown {
  private created: Promise<string> | undefined;

  /** The directory's path; creates it on the first call. */
  path(): Promise<string> {
    this.created ??= mkdtemp(join(tmpdir(), 'toolshield-notes-'));
    return this.created;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.created) await rm(await this.created, { recursive: true, force: true });
  }
}

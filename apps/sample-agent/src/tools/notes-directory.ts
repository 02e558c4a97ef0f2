import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory the notes tools keep their files in: a fresh temporary directory per
 * application, so every run starts without notes, removed when the application closes.
 */
@Injectable()
export class NotesDirectory implements OnApplicationShutdown {
  readonly path = mkdtempSync(join(tmpdir(), 'toolshield-notes-'));

  async onApplicationShutdown(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}

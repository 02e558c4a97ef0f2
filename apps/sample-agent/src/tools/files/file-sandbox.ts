import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The files the sandbox starts with. */
const SEED_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Project\n\nDeploys with `kubectl apply -f k8s/`.\n',
  'docs/runbook.md': 'When the search upstream answers 429, wait for Retry-After.\n',
};

/**
 * The directory `read_file` may read: a fresh temporary directory with a few files, created
 * on first use and removed when the application closes.
 */
@Injectable()
export class FileSandbox implements OnApplicationShutdown {
  private created?: Promise<string>;

  /** The sandbox's root; creates and fills it on the first call. */
  root(): Promise<string> {
    this.created ??= (async () => {
      const root = await mkdtemp(join(tmpdir(), 'toolshield-sandbox-'));
      for (const [path, text] of Object.entries(SEED_FILES)) {
        await mkdir(join(root, path, '..'), { recursive: true });
        await writeFile(join(root, path), text);
      }
      return root;
    })();
    return this.created;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.created) await rm(await this.created, { recursive: true, force: true });
  }
}

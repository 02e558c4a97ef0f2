import { createServer } from 'node:net';

/**
 * Rejects with the listen error (`EADDRINUSE`, `EACCES`) when `port` on `host` cannot be
 * bound, before the service migrates its store and resumes runs it could then not serve.
 * Port 0 always can.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise((resolve) => probe.close(resolve));
}

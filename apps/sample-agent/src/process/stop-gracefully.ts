import type { NestExpressApplication } from '@nestjs/platform-express';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import type { RunStore } from '../runs/run-store.js';

/**
 * A second signal sooner than this after the first is the same one delivered twice: Ctrl-C
 * sends SIGINT to the whole process group, and npm forwards its copy to the server too.
 */
const SAME_SIGNAL_WITHIN_MS = 2_000;

/** What a graceful stop needs. */
export interface GracefulStop {
  readonly app: NestExpressApplication;
  readonly store: RunStore;
  /** Flushed and shut down once the app and store are closed. */
  readonly telemetry?: { shutdown(): Promise<void> };
  /** How long runs in progress may take to finish. */
  readonly graceMs: number;
  readonly log: (line: string) => void;
}

/**
 * Stops the service on SIGTERM or SIGINT (what `docker stop`, systemd, Kubernetes and Ctrl-C
 * send): stops taking connections, lets the runs in progress finish within the grace, then
 * closes the app and the store and exits 0. Runs still going after the grace (or at a second
 * signal, 2 s or more after the first) are left `running` in the store, as after a crash: the
 * next start resumes them.
 */
export function stopGracefullyOnSignals(stop: GracefulStop): void {
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstAt !== undefined) {
      if (Date.now() - firstAt < SAME_SIGNAL_WITHIN_MS) return;
      stop.log(`${signal} again: exiting now; runs in progress resume at the next start.`);
      process.exit(0);
    }
    firstAt = Date.now();
    void stopGracefully(stop, signal).then(
      () => process.exit(0),
      (error: unknown) => {
        stop.log(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function stopGracefully(stop: GracefulStop, signal: NodeJS.Signals): Promise<void> {
  const server = stop.app.getHttpServer();
  server.close();
  server.closeIdleConnections();
  const left = await stop.app.get(AgentRunsService).settle(stop.graceMs);
  if (left.length > 0) {
    // Closing the app would cancel them; leaving them as they are keeps them resumable.
    stop.log(
      `${signal}: stopped; ${left.length} run(s) still in progress after ${stop.graceMs} ms resume at the next start.`,
    );
    server.closeAllConnections();
    return;
  }
  server.closeAllConnections();
  await stop.app.close();
  await stop.store.close();
  await stop.telemetry?.shutdown();
  stop.log(`${signal}: stopped (no run left in progress).`);
}

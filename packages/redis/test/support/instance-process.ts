import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallOutcome, InstanceCommand } from '../fixtures/instance.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
/** The chaos package's loader hooks run the repo's TypeScript sources in a child process. */
const registerTs = fileURLToPath(
  new URL('../../../chaos/test/support/register-ts.mjs', import.meta.url),
);

/** A reply from the instance. */
interface Reply {
  readonly type: string;
  readonly outcomes?: CallOutcome[];
  readonly state?: string;
  readonly health?: string;
  readonly rateLimitHealth?: string;
  readonly rateLimitFallbackShare?: number;
}

/** One application instance (test/fixtures/instance.ts) in its own Node process. */
export class InstanceProcess {
  private constructor(private readonly child: ChildProcess) {}

  /** Starts an instance and waits until its Nest app is up. */
  static async start(env: Record<string, string>): Promise<InstanceProcess> {
    const child = fork('test/fixtures/instance.ts', [], {
      cwd: packageDir,
      execArgv: ['--no-deprecation', '--conditions=@toolshield/source', '--import', registerTs],
      env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const instance = new InstanceProcess(child);
    try {
      // Three Nest apps compiling TypeScript at once on a busy 2-core machine can take long.
      await instance.reply('ready', 90_000);
    } catch (error) {
      // Not left running: an orphan would keep the test run (and the machine) busy.
      await instance.kill();
      throw error;
    }
    return instance;
  }

  /**
   * Runs `calls` calls, `intervalMs` apart, in each of `callers` callers at once; resolves with
   * every call's outcome, caller by caller.
   */
  async run(
    calls: number,
    intervalMs: number,
    callers = 1,
    tool = 'upstream',
  ): Promise<CallOutcome[]> {
    const ran = this.reply('ran', 30_000);
    this.send({ type: 'run', calls, intervalMs, callers, tool });
    return (await ran).outcomes ?? [];
  }

  /** Runs `calls` calls of the rate-limited tool at once; resolves with every call's outcome. */
  async concurrent(calls: number): Promise<CallOutcome[]> {
    const ran = this.reply('ran', 60_000);
    this.send({ type: 'concurrent', calls });
    return (await ran).outcomes ?? [];
  }

  /**
   * The breaker's state and the stores' health in the instance, and the share of a rate
   * limit it would pace at alone (1 / the instances it last saw alive).
   */
  async state(tool = 'upstream'): Promise<{
    state: string;
    health: string;
    rateLimitHealth: string;
    rateLimitFallbackShare: number;
  }> {
    const reply = this.reply('state', 5_000);
    this.send({ type: 'state', tool });
    const {
      state = '',
      health = '',
      rateLimitHealth = '',
      rateLimitFallbackShare = 1,
    } = await reply;
    return { state, health, rateLimitHealth, rateLimitFallbackShare };
  }

  /** Opens the breaker of `tool` by hand in this instance. */
  async open(tool = 'upstream'): Promise<void> {
    const reply = this.reply('opened', 5_000);
    this.send({ type: 'open', tool });
    await reply;
  }

  /** Sends a run of `tool` without waiting for it (the instance may die first). */
  start(tool: string): void {
    this.send({ type: 'run', calls: 1, intervalMs: 0, callers: 1, tool });
  }

  /** Kills the process (SIGKILL: it says goodbye to nobody) and waits for it to end. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Closes the app and waits for the process to end (killed after 5 s). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.send({ type: 'exit' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private send(command: InstanceCommand): void {
    this.child.send(command);
  }

  private reply(type: string, timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.off('message', onMessage);
        reject(new Error(`no '${type}' from the instance within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: Reply): void => {
        if (message.type !== type) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve(message);
      };
      this.child.on('message', onMessage);
    });
  }
}

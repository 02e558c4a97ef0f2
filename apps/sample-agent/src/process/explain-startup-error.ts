import { StartupError } from './startup-error.js';

/** What the one-line explanation may name. */
export interface StartupContext {
  /** The port the service tried to listen on. */
  readonly port: number;
  /** Where runs are kept, in words and without credentials (`PostgreSQL at db:5432`). */
  readonly store: string;
}

interface ErrorFacts {
  readonly code?: string;
  readonly syscall?: string;
  readonly message: string;
}

/** The error, its causes and an AggregateError's members, outermost first. */
function chain(error: unknown): ErrorFacts[] {
  const found: ErrorFacts[] = [];
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  while (queue.length > 0 && found.length < 20) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const { code, syscall, message, cause, errors } = next as Record<string, unknown>;
    found.push({
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof syscall === 'string' ? { syscall } : {}),
      message: typeof message === 'string' ? message : String(next),
    });
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return found;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);
/** PostgreSQL's own codes for a login or database that is not there. */
const POSTGRES_REFUSALS: Readonly<Record<string, string>> = {
  '28P01': 'the password was refused',
  '28000': 'the login was refused',
  '3D000': 'the database does not exist',
};

/**
 * One line saying what kept the service from starting and what to do about it: a bad
 * setting, a database it cannot reach or log in to, a port already taken. Anything else is
 * named by its first message line.
 */
export function explainStartupError(error: unknown, context: StartupContext): string {
  if (error instanceof StartupError) return error.message;
  const facts = chain(error);
  const listen = facts.find((fact) => fact.syscall === 'listen');
  if (listen?.code === 'EADDRINUSE') {
    return `Port ${context.port} on 127.0.0.1 is already in use: stop what listens there, or set PORT to another port (PORT=0 picks a free one).`;
  }
  if (listen?.code === 'EACCES') {
    return `Not allowed to listen on port ${context.port} of 127.0.0.1 (EACCES): use a port above 1023.`;
  }
  const refused = facts.find((fact) => fact.code !== undefined && fact.code in POSTGRES_REFUSALS);
  if (refused?.code) {
    return `Cannot open the run store (${context.store}): ${POSTGRES_REFUSALS[refused.code]} (${refused.message}); fix DATABASE_URL.`;
  }
  const unreachable = facts.find((fact) => fact.code !== undefined && UNREACHABLE.has(fact.code));
  if (unreachable) {
    return `Cannot reach the run store (${context.store}): ${unreachable.code}; start the database server or fix DATABASE_URL.`;
  }
  const first = (facts[0]?.message ?? String(error)).split('\n')[0];
  return `Could not start: ${first}`;
}

import type { RunEvent } from '../runs/run-event.js';

const MAX_SHOWN = 160;

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN - 1)}…` : line;
}

function json(value: unknown): string {
  return shorten(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * One run event as a line of the demo's live trace (or none, for events the line before
 * already says): model steps, calls, failed attempts, retries with their waits, results,
 * failures as the model reads them, breaker changes, chaos, decision prompts, the end.
 */
export function traceLine({ data }: RunEvent): string | undefined {
  switch (data.type) {
    case 'run.started':
      return `▶ ${data.scenario ?? 'task'}: ${data.task}`;
    case 'run.resumed':
      return `  ⟳ resumed ${data.instance ? `on ${data.instance}` : 'after a restart'} (${data.repaired} interrupted call(s) repaired)`;
    case 'run.handed_back':
      return `  ⇢ handed back to the queue by ${data.instance}`;
    case 'model.request':
      return undefined;
    case 'model.reply':
      return [
        `  assistant: ${shorten(data.content || '(no text)')}`,
        ...data.toolCalls.map((call) => `    → ${call.name} ${json(call.arguments)}`),
      ].join('\n');
    case 'model.failed':
      return `  ✗ model request failed: ${data.error}`;
    case 'decision.prompt':
      return `  ? decision prompt: ${shorten(data.content)}`;
    case 'tool.requested':
    case 'call.started':
      return undefined;
    case 'attempt.failed':
      return `    ✗ ${data.tool} attempt ${data.attempt}: ${data.errorType}${data.chaos ? ' (chaos)' : ''}: ${shorten(data.message)}`;
    case 'retry.scheduled':
      return `    ↻ ${data.tool}: attempt ${data.attempt} in ${Math.round(data.delayMs)} ms`;
    case 'retry.withheld':
      return `    ⊘ ${data.tool}: retry withheld, the ${data.key} retry budget is spent`;
    case 'call.succeeded':
      return `    ✓ ${data.tool}: ${json(data.result.output)}`;
    case 'call.failed':
      return `    ✗ ${data.tool} failed: ${data.failure.errorType}, ${data.failure.recoverable ? 'recoverable' : 'not recoverable'}`;
    case 'tool.result':
      return data.isError ? `      the model reads: ${shorten(data.content)}` : undefined;
    case 'breaker.state_changed':
      return `    ⚡ breaker ${data.key}: ${data.from} → ${data.to}`;
    case 'chaos.injected':
      return `    ☢ chaos: ${data.fault} into ${data.tool}`;
    case 'rate_limit.waiting':
      return `    ⧗ ${data.tool} waits ${Math.round(data.waitMs)} ms for its turn at ${data.key}`;
    case 'rate_limit.refused':
      return `    ⧗ ${data.tool} refused by the ${data.key} rate limit (retry in ${data.retryAfterMs} ms)`;
    case 'rate_limit.changed':
      return `    ⧗ rate limit ${data.key}: ${data.rate.toFixed(1)}/s (${data.reason})`;
    case 'hedge.sent':
      return `    ⇉ ${data.tool} still running after ${Math.round(data.delayMs)} ms: a second attempt started`;
    case 'hedge.won':
      return `    ⇉ ${data.tool}: the second attempt answered first`;
    case 'approval.requested':
      return `    ⏸ ${data.tool} awaits a person's approval (${data.approvalId}): ${json(data.approval.args)}`;
    case 'approval.approved':
      return `    ✔ ${data.tool}: approved${data.by ? ` by ${data.by}` : ''}`;
    case 'approval.denied':
      return `    ✗ ${data.tool}: declined${data.by ? ` by ${data.by}` : ''}${data.reason ? `: ${shorten(data.reason)}` : ''}`;
    case 'approval.expired':
      return `    ⌛ ${data.tool}: nobody approved it in time`;
    case 'run.awaiting_approval':
      return `  ⏸ the run waits for approval of ${data.approvals.map((each) => each.tool).join(', ')} (no worker holds it)`;
    case 'run.finished':
      return `■ ${data.status}: ${shorten(data.finalAnswer || data.reason.message)}`;
  }
}

// The dashboard's words for runs and their events: a trace line per event (what happened,
// with the detail the model saw), how long a run took, its first words, when it started.

/** What a result's metadata says the model read differently: a stale answer, a cut output. */
const resultMarks = (metadata) => {
  const marks = [];
  if (metadata?.cache?.lookup === 'stale') {
    marks.push(
      `⚠ stale: ${(metadata.cache.ageMs / 1000).toFixed(1)} s old (${metadata.cache.staleBecause})`,
    );
  }
  if (metadata?.output?.cut) {
    const omitted = (metadata.output.totalBytes - metadata.output.shownBytes) / 1000;
    marks.push(`✂ cut: ${omitted.toFixed(1)} KB omitted`);
  }
  return marks.length === 0 ? '' : ` [${marks.join('; ')}]`;
};
export const short = (text, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const json = (value) => short(typeof value === 'string' ? value : JSON.stringify(value));

/** One trace line per event: what happened, in words, with the detail the model saw. */
export function describe(data) {
  switch (data.type) {
    case 'run.started':
      return [
        'model',
        `run started: ${data.task}`,
        `scenario ${data.scenario ?? '(none)'} · model ${data.model}`,
      ];
    case 'run.resumed':
      return [
        'decision',
        `run resumed ${data.instance ? `on ${data.instance}` : 'after a restart'} (${data.repaired} interrupted call(s) repaired)`,
      ];
    case 'run.handed_back':
      return ['decision', `run handed back to the queue by ${data.instance}`];
    case 'model.request':
      return ['model', `model step ${data.step}: asking the model (${data.messages} messages)`];
    case 'model.reply':
      return [
        'model',
        `assistant: ${data.content || '(no text)'}`,
        data.toolCalls.map((call) => `→ ${call.name} ${json(call.arguments)}`).join('\n') ||
          undefined,
      ];
    case 'model.failed':
      return ['fail', `model request failed`, data.error];
    case 'decision.prompt':
      return ['decision', 'decision prompt (CONTINUE or STOP)', data.content];
    case 'tool.requested':
      return ['call', `→ ${data.tool} ${json(data.arguments)}`];
    case 'call.started':
      return ['call', `${data.tool}: attempt 1 started`];
    case 'attempt.failed':
      return [
        'fail',
        `${data.tool}: attempt ${data.attempt} failed (${data.errorType}${data.chaos ? ', chaos' : ''})`,
        data.message,
      ];
    case 'retry.scheduled':
      return [
        'retry',
        `↻ ${data.tool}: retry, attempt ${data.attempt} in ${Math.round(data.delayMs)} ms (${data.errorType})`,
      ];
    case 'call.succeeded':
      return [
        'ok',
        `✓ ${data.tool}${resultMarks(data.result.metadata)}: ${json(data.result.output)}`,
      ];
    case 'call.failed':
      return [
        'fail',
        `✗ ${data.tool}: ${data.failure.errorType}, ${data.failure.recoverable ? 'recoverable' : 'not recoverable'}`,
        data.failure.error,
      ];
    case 'tool.result':
      // A success was shown with its call; a failure is shown as the model reads it.
      return data.isError ? ['fail', `the model reads (${data.tool}):`, data.content] : undefined;
    case 'breaker.state_changed':
      return ['breaker', `breaker ${data.key}: ${data.from} → ${data.to}`];
    case 'chaos.injected':
      return [
        'chaos',
        `chaos: ${data.fault} injected into ${data.tool}${data.rule ? ` (rule ${data.rule})` : ''}`,
      ];
    case 'approval.requested':
      return ['decision', `${data.tool} waits for a person's approval`, json(data.approval.args)];
    case 'run.awaiting_approval':
      return [
        'decision',
        `run waits for approval of ${data.approvals.map((a) => a.tool).join(', ')}`,
      ];
    case 'approval.approved':
    case 'approval.denied':
      return [
        data.type === 'approval.approved' ? 'ok' : 'fail',
        `${data.tool} ${data.type === 'approval.approved' ? 'approved' : 'denied'}${data.by ? ` by ${data.by}` : ''}`,
        data.reason,
      ];
    case 'approval.expired':
      return ['fail', `${data.tool}: nobody approved it in time`];
    case 'run.finished':
      return ['end', `run ${data.status}: ${data.reason.message}`];
    default:
      return ['call', data.type];
  }
}

export const duration = (run) => {
  if (!run.finishedAt) return run.status === 'awaiting_approval' ? 'waiting' : 'running';
  const ms = Date.parse(run.finishedAt) - Date.parse(run.createdAt);
  return ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`;
};
export const firstWords = (text, count = 7) => {
  const words = text.split(/\s+/);
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : text;
};
export const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour12: false });

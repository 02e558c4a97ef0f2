// A run's waterfall as data: its rows (model steps, tool calls and each attempt) and
// markers, from the run's events, with times in ms since its first event; waterfall.js draws it.

/** Bar colours by failure type; anything else failed is `failed`. */
export const FAILURE_COLOURS = {
  rate_limited: '#b7791f',
  timeout: '#7b4fb0',
  upstream_unavailable: '#c0392b',
  network: '#a04000',
  circuit_open: '#2d3440',
  invalid_input: '#b03a7a',
  not_found: '#1a7f86',
  permission_denied: '#8e1b1b',
  failed: '#c0392b',
};
export const colourOf = (errorType) =>
  errorType === undefined ? '#1f8a4c' : (FAILURE_COLOURS[errorType] ?? FAILURE_COLOURS.failed);

/** Rows of the waterfall from a run's events, times in ms since the run's first event. */
export function buildWaterfall(events, now = Date.now()) {
  const t0 = events[0]?.at ?? now;
  const steps = new Map();
  const calls = new Map();
  const markers = [];
  let end = events.at(-1)?.at ?? t0;
  const finished = events.some((event) => event.data.type === 'run.finished');
  if (!finished) end = Math.max(end, now);
  const attemptOf = (call, number) => {
    let attempt = call.attempts.find((candidate) => candidate.number === number);
    if (!attempt) {
      attempt = { number, start: undefined, end: undefined };
      call.attempts.push(attempt);
    }
    return attempt;
  };
  for (const { at, data } of events) {
    const t = at - t0;
    switch (data.type) {
      case 'model.request':
        steps.set(data.step, { kind: 'step', step: data.step, start: t, messages: data.messages });
        break;
      case 'model.reply':
      case 'model.failed': {
        const step = steps.get(data.step);
        if (!step) break;
        step.end = t;
        if (data.type === 'model.failed') step.error = data.error;
        else step.reply = data;
        break;
      }
      case 'tool.requested':
        calls.set(data.callId, {
          kind: 'call',
          callId: data.callId,
          tool: data.tool,
          arguments: data.arguments,
          start: t,
          attempts: [],
          waits: [],
          chaos: [],
        });
        break;
      case 'tool.result': {
        const call = calls.get(data.callId);
        if (call) call.modelRead = data.content;
        break;
      }
      case 'breaker.state_changed':
        markers.push({
          kind: 'breaker',
          t,
          text: `breaker ${data.key}: ${data.from} → ${data.to}`,
          to: data.to,
        });
        break;
      default: {
        const call = data.callId === undefined ? undefined : calls.get(data.callId);
        if (call) callEvent(call, data, t, attemptOf, markers);
      }
    }
  }
  for (const call of calls.values()) {
    call.end ??= call.attempts.at(-1)?.end ?? end;
    for (const attempt of call.attempts) {
      attempt.start ??= call.start;
      attempt.end ??= call.end;
    }
  }
  for (const step of steps.values()) step.end ??= end;
  const rows = [...steps.values(), ...calls.values()].sort((a, b) => a.start - b.start);
  return { t0, duration: Math.max(end - t0, 1), rows, markers, finished };
}

/** One tool event of a call: its attempts, the waits between them, injected faults. */
function callEvent(call, data, t, attemptOf, markers) {
  switch (data.type) {
    case 'call.started':
      attemptOf(call, 1).start = t;
      break;
    case 'attempt.failed': {
      const attempt = attemptOf(call, data.attempt);
      attempt.end = t;
      attempt.errorType = data.errorType;
      attempt.message = data.message;
      attempt.chaos = data.chaos === true;
      break;
    }
    case 'retry.scheduled': {
      const kind = data.errorType === 'rate_limited' ? 'Retry-After' : 'backoff';
      call.waits.push({ start: t, end: t + data.delayMs, kind, errorType: data.errorType });
      attemptOf(call, data.attempt).start = t + data.delayMs;
      break;
    }
    case 'rate_limit.waiting':
      call.waits.push({ start: t, end: t + data.waitMs, kind: 'rate limit' });
      break;
    case 'chaos.injected':
      call.chaos.push({ t, fault: data.fault, rule: data.rule });
      markers.push({
        kind: 'chaos',
        t,
        text: `chaos: ${data.fault} into ${data.tool}`,
        callId: call.callId,
      });
      break;
    case 'call.succeeded':
      call.end = t;
      call.output = data.result.output;
      break;
    case 'call.failed': {
      call.end = t;
      call.errorType = data.failure.errorType;
      call.error = data.failure.error;
      // A call without a retry policy reports no attempt: its one attempt failed with it.
      const last = call.attempts.at(-1);
      if (last && last.errorType === undefined && last.end === undefined) {
        last.errorType = data.failure.errorType;
        last.message = data.failure.error;
      }
      break;
    }
  }
}

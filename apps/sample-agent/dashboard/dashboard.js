// The sample agent's dashboard: plain JavaScript against the app's HTTP API, no build step.
const $ = (selector) => document.querySelector(selector);

const state = { selected: undefined, source: undefined, scenarios: [] };

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(payload.message ?? `HTTP ${response.status}`);
  return payload;
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}

const badge = (text) => element('span', { class: `badge ${text}` }, text);
const short = (text, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const json = (value) => short(typeof value === 'string' ? value : JSON.stringify(value));

/** One trace line per event: what happened, in words, with the detail the model saw. */
function describe(data) {
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
      return ['ok', `✓ ${data.tool}: ${json(data.result.output)}`];
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
    case 'run.finished':
      return ['end', `run ${data.status}: ${data.reason.message}`];
    default:
      return ['call', data.type];
  }
}

function showEvent(event) {
  const described = describe(event.data);
  if (described) addLine(event, described);
  if (event.data.type === 'run.finished') {
    const final = $('#final');
    final.hidden = false;
    final.className = `final ${event.data.status}`;
    final.textContent = `Final answer: ${event.data.finalAnswer || '(none)'}`;
    $('#trace-status').replaceChildren(badge(event.data.status));
    refreshRuns();
  }
  if (['breaker.state_changed', 'call.failed', 'call.succeeded'].includes(event.data.type))
    refreshTools();
}

function addLine(event, [kind, text, detail]) {
  const line = element(
    'li',
    { class: kind, 'data-type': event.data.type },
    element('span', { class: 'seq' }, String(event.seq)),
    text,
    detail === undefined ? undefined : element('span', { class: 'detail' }, detail),
  );
  $('#trace').append(line);
  line.scrollIntoView({ block: 'nearest' });
}

function follow(runId) {
  state.source?.close();
  state.selected = runId;
  $('#trace').replaceChildren();
  $('#final').hidden = true;
  $('#trace-title').textContent = `Trace of ${runId.slice(0, 8)}`;
  $('#trace-status').replaceChildren(badge('running'));
  // EventSource resends Last-Event-ID itself when it reconnects, so nothing is shown twice.
  const source = new EventSource(`/api/runs/${runId}/events`);
  source.onmessage = (message) => showEvent(JSON.parse(message.data));
  source.onerror = () => {
    if ($('#final').hidden === false) source.close();
  };
  state.source = source;
  for (const item of document.querySelectorAll('#runs li')) {
    item.classList.toggle('selected', item.dataset.id === runId);
  }
}

async function refreshRuns() {
  const runs = await api('GET', '/api/runs');
  $('#runs').replaceChildren(
    ...runs.map((run) =>
      element(
        'li',
        {
          'data-id': run.id,
          class: run.id === state.selected ? 'selected' : '',
          onclick: () => follow(run.id),
        },
        element('span', { class: 'name', title: run.task }, run.scenario ?? run.task),
        badge(run.status),
      ),
    ),
  );
}

async function refreshTools() {
  const tools = await api('GET', '/api/tools');
  $('#tools').replaceChildren(
    ...tools.map((tool) =>
      element(
        'li',
        { title: tool.description, 'data-tool': tool.name },
        element('code', {}, tool.name),
        badge(tool.breaker),
      ),
    ),
  );
}

function showChaos(chaos) {
  $('#chaos-enabled').checked = chaos.enabled;
  $('#chaos-rules').replaceChildren(
    ...chaos.rules.map((rule) =>
      element(
        'li',
        { title: JSON.stringify(rule.fault) },
        element(
          'span',
          {},
          `${rule.name} (${rule.fault.kind}${rule.tools ? ` on ${rule.tools.join(', ')}` : ''})`,
        ),
        element('span', { class: 'badge' }, `${rule.injections} injected`),
      ),
    ),
  );
}

async function loadScenarios() {
  state.scenarios = await api('GET', '/api/scenarios');
  $('#scenario').append(
    ...state.scenarios.map((scenario) =>
      element('option', { value: scenario.name }, scenario.title),
    ),
  );
  $('#scenario').addEventListener('change', () => {
    const scenario = state.scenarios.find((candidate) => candidate.name === $('#scenario').value);
    if (scenario) $('#task').value = scenario.task;
  });
}

$('#start-form').addEventListener('submit', async (submit) => {
  submit.preventDefault();
  $('#form-error').textContent = '';
  try {
    const scenario = $('#scenario').value || undefined;
    const run = await api('POST', '/api/runs', { task: $('#task').value, scenario });
    await refreshRuns();
    follow(run.id);
  } catch (error) {
    $('#form-error').textContent = error.message;
  }
});

$('#chaos-enabled').addEventListener('change', async () => {
  showChaos(await api('PUT', '/api/chaos', { enabled: $('#chaos-enabled').checked }));
});

await Promise.all([
  loadScenarios(),
  refreshRuns(),
  refreshTools(),
  api('GET', '/api/chaos').then(showChaos),
]);
setInterval(() => {
  refreshRuns();
  refreshTools();
  api('GET', '/api/chaos').then(showChaos);
}, 3_000);

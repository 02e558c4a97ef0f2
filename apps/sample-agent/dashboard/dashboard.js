// The sample agent's dashboard: plain JavaScript against the app's HTTP API, no build step.
import { drawApprovals } from './approvals.js';
import { element } from './dom.js';
import { drawHealth } from './health.js';
import { clock, describe, duration, firstWords, short } from './run-words.js';
import { buildWaterfall, drawWaterfall, legendEntries } from './waterfall.js';

const $ = (selector) => document.querySelector(selector);

const state = {
  selected: undefined,
  source: undefined,
  scenarios: [],
  runs: [],
  events: [],
  drawPending: undefined,
  toolsPending: undefined,
  /** Trace lines waiting for the next frame. */
  lines: [],
};

// With API_TOKEN set, the service answers 401 until the dashboard sends the token: asked for
// once, kept for this tab only (sessionStorage).
const TOKEN_KEY = 'toolshield-api-token';
const authorization = () => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
};

async function api(method, path, body, retried = false) {
  const sent = sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(path, {
    method,
    headers: {
      ...authorization(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 && !retried) {
    // Requests started together all get a 401: only the first asks, the others use its answer.
    if (sessionStorage.getItem(TOKEN_KEY) === sent) {
      const token = window.prompt('This service asks for its API token (API_TOKEN):')?.trim();
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
    }
    if (sessionStorage.getItem(TOKEN_KEY) !== sent) return api(method, path, body, true);
  }
  const payload = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(payload.message ?? `HTTP ${response.status}`);
  return payload;
}

const badge = (text) => element('span', { class: `badge ${text}` }, text);

/** Refreshes the tools and their health at most every half second while events stream in. */
function refreshToolsSoon() {
  if (state.toolsPending) return;
  state.toolsPending = setTimeout(() => {
    state.toolsPending = undefined;
    refreshTools();
    refreshHealth();
  }, 500);
}

/** How often the waterfall is redrawn while events stream in (a past run's arrive at once). */
const DRAW_EVERY_MS = 150;

/** Draws the new trace lines and the waterfall: at most every DRAW_EVERY_MS, at once when the run ends. */
function scheduleWaterfall(now = false) {
  if (now) {
    clearTimeout(state.drawPending);
    state.drawPending = undefined;
  } else if (state.drawPending !== undefined) return;
  const draw = () =>
    requestAnimationFrame(() => {
      state.drawPending = undefined;
      $('#trace').append(...state.lines.splice(0));
      drawRunWaterfall();
    });
  if (now) draw();
  else state.drawPending = setTimeout(draw, DRAW_EVERY_MS);
}

function drawRunWaterfall() {
  if (state.events.length === 0) return;
  const model = buildWaterfall(state.events);
  $('#waterfall').hidden = false;
  const box = $('.wf-box');
  const width = box.clientWidth - $('#wf-labels').offsetWidth;
  drawWaterfall(model, { svg: $('#wf-chart'), labels: $('#wf-labels'), width }, showDetail);
  $('#wf-legend').replaceChildren(
    ...legendEntries(model).map(([label, colour]) =>
      element('li', {}, element('span', { class: 'swatch', style: `background:${colour}` }), label),
    ),
    element('li', {}, element('span', { class: 'swatch wait' }), 'wait (backoff, Retry-After)'),
    element('li', {}, element('span', { class: 'swatch breaker' }), 'breaker change'),
    element('li', {}, element('span', { class: 'swatch chaos' }), 'chaos injected'),
  );
}

function showDetail(detail) {
  $('#wf-detail').replaceChildren(
    element('strong', {}, detail.title),
    element(
      'dl',
      {},
      ...detail.lines.flatMap(([label, text]) => [
        element('dt', {}, label),
        element('dd', {}, short(text, 600)),
      ]),
    ),
  );
}

function showEvent(event) {
  state.events.push(event);
  const described = describe(event.data);
  if (described) addLine(event, described);
  scheduleWaterfall(event.data.type === 'run.finished');
  if (event.data.type === 'run.finished') {
    const final = $('#final');
    final.hidden = false;
    final.className = `final ${event.data.status}`;
    final.textContent = `Final answer: ${event.data.finalAnswer || '(none)'}`;
    $('#trace-status').replaceChildren(badge(event.data.status));
    refreshRuns();
  }
  if (['breaker.state_changed', 'call.failed', 'call.succeeded'].includes(event.data.type))
    refreshToolsSoon();
  if (event.data.type === 'run.awaiting_approval') {
    $('#trace-status').replaceChildren(badge('awaiting_approval'));
    refreshApprovals();
  } else if (event.data.type === 'run.resumed') {
    $('#trace-status').replaceChildren(badge('running'));
  }
}

async function refreshApprovals() {
  drawApprovals($('#approvals'), await api('GET', '/api/approvals'), {
    decide: async (id, decision, reason) => {
      await api('POST', `/api/approvals/${id}`, { decision, ...(reason ? { reason } : {}) });
      await Promise.all([refreshApprovals(), refreshRuns()]);
    },
    follow,
  });
}

function addLine(event, [kind, text, detail]) {
  const line = element(
    'li',
    { class: kind, 'data-type': event.data.type },
    element('span', { class: 'seq' }, String(event.seq)),
    text,
    detail === undefined ? undefined : element('span', { class: 'detail' }, detail),
  );
  state.lines.push(line);
}

function follow(runId) {
  state.source?.close();
  state.selected = runId;
  state.events = [];
  state.lines = [];
  history.replaceState(null, '', `#run=${runId}`);
  $('#trace').replaceChildren();
  $('#waterfall').hidden = true;
  $('#final').hidden = true;
  $('#trace-title').textContent = `Trace of ${runId.slice(0, 8)}`;
  $('#trace-status').replaceChildren(badge('running'));
  // EventSource resends Last-Event-ID itself when it reconnects, so nothing is shown twice.
  // EventSource sends no headers: the token goes in the query (the API takes it there on GET).
  const token = sessionStorage.getItem(TOKEN_KEY);
  const query = token ? `?access_token=${encodeURIComponent(token)}` : '';
  const source = new EventSource(`/api/runs/${runId}/events${query}`);
  source.onmessage = (message) => showEvent(JSON.parse(message.data));
  source.onerror = () => {
    if ($('#final').hidden === false) source.close();
  };
  state.source = source;
  for (const item of document.querySelectorAll('#runs li')) {
    item.classList.toggle('selected', item.dataset.id === runId);
  }
}

function shownRuns() {
  const status = $('#status-filter').value;
  return state.runs.filter((run) => !status || run.status === status);
}

function drawRuns() {
  $('#runs').replaceChildren(
    ...shownRuns().map((run) =>
      element(
        'li',
        {
          'data-id': run.id,
          'data-status': run.status,
          class: run.id === state.selected ? 'selected' : '',
          tabindex: '0',
          onclick: () => follow(run.id),
          onkeydown: (key) => key.key === 'Enter' && follow(run.id),
        },
        element(
          'span',
          { class: 'run-line' },
          element('span', { class: 'name', title: run.task }, run.scenario ?? 'free task'),
          badge(run.status),
        ),
        element('span', { class: 'task' }, firstWords(run.task)),
        element(
          'span',
          { class: 'when' },
          `${clock(run.createdAt)} · ${duration(run)} · ${run.id.slice(0, 8)}`,
        ),
      ),
    ),
  );
  drawSummary();
}

async function refreshRuns() {
  state.runs = await api('GET', '/api/runs');
  await refreshSummaries();
  drawRuns();
}

async function refreshSummaries() {
  const status = $('#status-filter').value;
  state.summaries = await api('GET', `/api/run-summaries${status ? `?status=${status}` : ''}`);
}

/** The console demo's closing table, for the runs the list shows, with a total row. */
function drawSummary() {
  const table = state.summaries;
  if (!table) return;
  const line = (values, tag = 'td') =>
    element('tr', {}, ...values.map((value) => element(tag, {}, value)));
  $('#summary').replaceChildren(
    element('thead', {}, line(table.columns, 'th')),
    element('tbody', {}, ...table.rows.map((row) => line(row.cells))),
    element('tfoot', {}, line(table.total)),
  );
}

async function refreshHealth() {
  drawHealth($('#health'), await api('GET', '/api/tool-health'));
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

$('#status-filter').addEventListener('change', async () => {
  drawRuns();
  await refreshSummaries();
  drawSummary();
});
window.addEventListener('resize', () => scheduleWaterfall());

$('#chaos-enabled').addEventListener('change', async () => {
  showChaos(await api('PUT', '/api/chaos', { enabled: $('#chaos-enabled').checked }));
});

/** Follows the run the address names (`#run=<id>`), so a run's view can be linked. */
function followLinked() {
  const linked = /^#run=([\w-]+)$/.exec(location.hash)?.[1];
  if (linked && linked !== state.selected) follow(linked);
}
window.addEventListener('hashchange', followLinked);
// The linked run's events first: the lists load meanwhile.
followLinked();
await Promise.all([
  loadScenarios(),
  refreshRuns(),
  refreshTools(),
  refreshHealth(),
  refreshApprovals(),
  api('GET', '/api/chaos').then(showChaos),
]);
setInterval(() => {
  refreshRuns();
  refreshApprovals();
  refreshTools();
  refreshHealth();
  api('GET', '/api/chaos').then(showChaos);
}, 3_000);

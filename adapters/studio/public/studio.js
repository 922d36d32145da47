// The signalbox studio: each view is drawn from the JSON endpoints under /studio/api (documented in /openapi.json,
// tag Studio). Plain DOM: every text goes in through textContent, never as HTML.

const main = document.getElementById('main');
const TOKEN = 'signalbox-studio-token';
let mode = { edit: false, sandbox: false, scenarios: [] };
let lastRun; // the latest scenario run, shared by the Scenarios and Coverage views

// ---------------------------------------------------------------- helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

const token = () => sessionStorage.getItem(TOKEN);

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token()) headers.authorization = `Bearer ${token()}`;
  const res = await fetch(`/studio/api${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const data = await res.json().catch(() => undefined);
  return { ok: res.ok, status: res.status, data };
}

/** A Problem answer, as the page shows it. */
function problemBox(p) {
  return h(
    'div',
    { class: 'problem-box', role: 'alert' },
    h('strong', {}, `${p?.status ?? ''} ${p?.code ?? ''} ${p?.title ?? 'Refused'}`),
    h('p', {}, p?.detail ?? ''),
    ...(p?.pointers ?? []).map((x) => h('p', { class: 'pointer' }, `${x.requestPointer}${x.detail ? `: ${x.detail}` : ''}`)),
  );
}

const json = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const isTexts = (v) => v && typeof v === 'object' && !Array.isArray(v) && ('en-GB' in v || 'sv-SE' in v);

/** A value as the tables show it: rule texts in both languages, each marked with its language. */
function valueView(v) {
  if (isTexts(v))
    return h(
      'span',
      { class: 'texts' },
      ...Object.entries(v).map(([lang, text]) => h('span', { lang, class: 'text' }, h('abbr', { title: lang }, lang.slice(0, 2)), ' ', text)),
    );
  return h('code', {}, json(v));
}

/** A cell as the file writes it (`{ between: [16, 64] }`); rule texts in both languages. */
const cellView = (c) => (isTexts(c.value) ? valueView(c.value) : h('code', {}, c.text));
/** `rules/fare-factors.yaml:34:5` → `fare-factors.yaml:34`; the whole place is the title. */
const shortAt = (at) => at.replace(/^.*\//, '').replace(/:\d+$/, '');

function money(m) {
  return m ? `${(m.amount / 10 ** (m.scale ?? 2)).toFixed(m.scale ?? 2)} ${m.currency}` : '';
}

function setView(title, ...content) {
  document.title = `${title} · signalbox studio`;
  main.replaceChildren(h('h2', {}, title), ...content);
  for (const a of document.querySelectorAll('nav a')) a.toggleAttribute('aria-current', location.hash.startsWith(a.getAttribute('href')));
}

function traceList(traces) {
  // The same decision with the same facts and rows shows once, with how often it was made.
  const seen = new Map();
  for (const t of traces ?? []) {
    const key = JSON.stringify([t.decision, t.fired, t.facts]);
    const entry = seen.get(key);
    if (entry) entry.n++;
    else seen.set(key, { t, n: 1 });
  }
  return h(
    'ol',
    { class: 'trace' },
    ...[...seen.values()].map(({ t, n }) =>
      h(
        'li',
        { 'data-decision': t.decision },
        h('a', { href: `#/tables/${t.decision}` }, t.decision),
        ' → ',
        t.fired.length
          ? t.fired.map((f, i) => [
              i ? ', ' : '',
              h(
                'a',
                {
                  href: `#/tables/${t.decision}?row=${encodeURIComponent(f.row)}&facts=${encodeURIComponent(JSON.stringify(t.facts))}`,
                  class: 'row-ref',
                  title: `${f.at}: open the table and explain this case`,
                },
                f.row,
              ),
            ])
          : h('em', {}, 'no row'),
        n > 1 ? ` (×${n})` : '',
        h(
          'span',
          { class: 'facts' },
          ' ',
          Object.entries(t.facts)
            .map(([k, v]) => `${k}=${json(v)}`)
            .join(' '),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------- browse: decision tables

async function tablesView() {
  const { data } = await api('GET', '/decisions');
  setView(
    'Decision tables',
    h('p', {}, 'Every decision the engine makes, as the files in rules/ state it. Open one to read it, try it or change it.'),
    h(
      'table',
      { class: 'grid' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Decision'), h('th', {}, 'Title'), h('th', {}, 'Hit policy'), h('th', {}, 'Spec'), h('th', {}, 'Rows'), h('th', {}, 'File')),
      ),
      h(
        'tbody',
        {},
        ...data.map((d) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/tables/${d.decision}` }, d.decision)),
            h('td', {}, d.title),
            h('td', {}, d.hitPolicy),
            h('td', {}, d.spec ?? ''),
            h('td', { class: 'num' }, d.rows),
            h('td', {}, h('code', {}, d.file)),
          ),
        ),
      ),
    ),
  );
}

async function tableView(name, params) {
  const { ok, data: table } = await api('GET', `/decisions/${encodeURIComponent(name)}`);
  if (!ok) return setView(name, problemBox(table));
  const state = { table, editing: false, rows: null, problems: [], explanation: null };
  const grid = h('div', { class: 'table-wrap' });
  const problemsList = h('div', { id: 'problems', 'aria-live': 'polite' });
  const impactBox = h('div', { id: 'impact', 'aria-live': 'polite' });
  const saveBox = h('div', { id: 'save-result', 'aria-live': 'polite' });

  const editRows = () =>
    state.rows ??
    table.rows.map((r) => ({
      was: r.id,
      id: r.id,
      otherwise: r.otherwise,
      when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, c.text])),
      then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, c.text])),
    }));

  function problemsAt(i, cell) {
    return state.problems.filter((p) => p.row === i && (cell === undefined || p.cell === cell));
  }

  function draw() {
    const cols = table.columns;
    const explained = state.explanation?.rows;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, '#'),
      h('th', { scope: 'col' }, 'Row'),
      ...cols.when.map((f) => h('th', { scope: 'col', class: 'when' }, h('span', { class: 'kind' }, 'if '), f)),
      ...cols.then.map((k) => h('th', { scope: 'col', class: 'then' }, h('span', { class: 'kind' }, 'then '), k)),
      explained ? h('th', { scope: 'col' }, 'This case') : null,
      state.editing ? h('th', { scope: 'col' }, 'Order') : h('th', { scope: 'col' }, 'Where'),
    );
    let body;
    if (!state.editing) {
      body = table.rows.map((r, i) => {
        const x = explained?.[i];
        const tr = h(
          'tr',
          { id: `row-${r.id}`, 'data-row': r.id, class: [x?.fired ? 'fired' : '', params.get('row') === r.id ? 'target' : ''].join(' ').trim() || undefined },
          h('td', { class: 'num' }, i + 1),
          h('th', { scope: 'row' }, r.id),
          ...cols.when.map((f) =>
            h('td', { class: 'when' }, r.otherwise && f === cols.when[0] ? h('em', {}, 'otherwise') : r.when[f] ? cellView(r.when[f]) : ''),
          ),
          ...cols.then.map((k) => h('td', { class: 'then' }, r.then[k] ? cellView(r.then[k]) : '')),
          explained
            ? h(
                'td',
                { class: 'why' },
                x.fired
                  ? h('strong', {}, 'decides')
                  : x.firstFailed
                    ? `${x.firstFailed.fact} is ${json(x.firstFailed.actual)}, needs ${x.firstFailed.operator} ${json(x.firstFailed.expected)}`
                    : '',
              )
            : null,
          h('td', {}, h('code', { class: 'at', title: r.at }, shortAt(r.at))),
        );
        return tr;
      });
    } else {
      const rows = editRows();
      body = rows.map((r, i) => {
        const cellInput = (part, key) => {
          const problems = problemsAt(i, `${part}.${key}`);
          const id = `cell-${i}-${part}-${key}`;
          return h(
            'td',
            { class: `${part}${problems.length ? ' problem' : ''}` },
            h('input', {
              id,
              value: r[part][key] ?? '',
              'aria-label': `Row ${r.id}: ${part === 'when' ? 'condition on' : 'outcome'} ${key}`,
              'aria-invalid': problems.length > 0 ? 'true' : undefined,
              'aria-describedby': problems.length ? `${id}-p` : undefined,
              disabled: part === 'when' && r.otherwise,
              placeholder: part === 'when' && r.otherwise ? 'otherwise' : undefined,
              oninput: (e) => {
                r[part][key] = e.target.value;
                state.rows = rows;
                scheduleCheck();
              },
            }),
            problems.length ? h('span', { id: `${id}-p`, class: 'cell-problem' }, problems.map((p) => p.message).join('; ')) : null,
          );
        };
        const rowProblems = problemsAt(i).filter((p) => !p.cell || p.cell === 'id');
        const move = (to) => {
          const [x] = rows.splice(i, 1);
          rows.splice(to, 0, x);
          state.rows = rows;
          draw();
          scheduleCheck();
        };
        const decides = explained?.find((x) => x.row === r.was)?.fired;
        return h(
          'tr',
          { 'data-row': r.id, class: [rowProblems.length ? 'problem' : '', decides ? 'fired' : ''].join(' ').trim() || undefined },
          h('td', { class: 'num' }, i + 1),
          h(
            'th',
            { scope: 'row' },
            h('input', {
              value: r.id,
              'aria-label': `Row ${i + 1} id`,
              size: 14,
              oninput: (e) => {
                r.id = e.target.value;
                state.rows = rows;
                scheduleCheck();
              },
            }),
            h(
              'label',
              { class: 'otherwise' },
              h('input', {
                type: 'checkbox',
                checked: r.otherwise,
                onchange: (e) => {
                  r.otherwise = e.target.checked;
                  state.rows = rows;
                  draw();
                  scheduleCheck();
                },
              }),
              ' otherwise',
            ),
            rowProblems.length ? h('span', { class: 'cell-problem' }, rowProblems.map((p) => p.message).join('; ')) : null,
          ),
          ...cols.when.map((f) => cellInput('when', f)),
          ...cols.then.map((k) => cellInput('then', k)),
          h(
            'td',
            { class: 'order' },
            h('button', { type: 'button', 'aria-label': `Move row ${r.id} up`, disabled: i === 0, onclick: () => move(i - 1) }, '↑'),
            h('button', { type: 'button', 'aria-label': `Move row ${r.id} down`, disabled: i === rows.length - 1, onclick: () => move(i + 1) }, '↓'),
            h(
              'button',
              {
                type: 'button',
                'aria-label': `Remove row ${r.id}`,
                onclick: () => {
                  rows.splice(i, 1);
                  state.rows = rows;
                  draw();
                  scheduleCheck();
                },
              },
              '✕',
            ),
          ),
        );
      });
    }
    const tableProblems = state.problems.filter((p) => p.row === undefined);
    grid.replaceChildren(h('table', { class: 'grid rules', 'aria-label': `${table.decision} rows` }, h('thead', {}, head), h('tbody', {}, body)));
    problemsList.replaceChildren(
      state.editing && state.refused
        ? h(
            'p',
            { class: 'note' },
            `check did not run (${state.refused.status} ${state.refused.code}): checking, previewing and saving an edit need an analyst\u2019s token; sign in above.`,
          )
        : '',
      state.editing && !state.refused
        ? h(
            'p',
            { class: state.problems.length ? 'bad' : 'good' },
            state.problems.length ? `check: ${state.problems.length} problem${state.problems.length === 1 ? '' : 's'}` : 'check: no problems',
          )
        : '',
      tableProblems.length
        ? h(
            'ul',
            { class: 'problems' },
            tableProblems.map((p) => h('li', {}, h('code', {}, p.at), ' ', p.message)),
          )
        : '',
    );
  }

  let timer;
  function scheduleCheck() {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }
  async function check() {
    const { ok, data } = await api('POST', `/decisions/${table.decision}/check`, { rows: editRows() });
    state.refused = ok ? undefined : data;
    state.problems = ok ? data.problems : [];
    const focused = document.activeElement?.id;
    const caret = document.activeElement?.selectionStart;
    draw();
    if (focused) {
      const el = document.getElementById(focused);
      el?.focus();
      if (caret !== undefined && el?.setSelectionRange) el.setSelectionRange(caret, caret);
    }
  }

  // ---- try: the form from the fact catalogue
  const factInputs = table.facts.map((f) => {
    const id = `fact-${f.name}`;
    let input;
    if (f.kind === 'enum')
      input = h(
        'select',
        { id, name: f.name },
        f.values.map((v) => h('option', { value: v, selected: v === f.default }, v)),
      );
    else if (f.kind === 'boolean') input = h('select', { id, name: f.name }, h('option', { value: 'false' }, 'false'), h('option', { value: 'true' }, 'true'));
    else if (f.kind === 'number')
      input = h('input', { id, name: f.name, type: 'number', min: f.min, max: f.max, value: f.default ?? Math.max(f.min, 0), required: true });
    else
      input = h('input', {
        id,
        name: f.name,
        value: f.default ?? (f.kind === 'instant' ? new Date().toISOString().replace(/\.\d+Z$/, 'Z') : ''),
        placeholder: f.kind === 'instant' ? '2026-12-01T08:00:00+01:00' : '',
      });
    return {
      f,
      el: h(
        'label',
        { for: id },
        h('span', {}, `${f.name} `, h('small', {}, f.kind === 'enum' ? 'one of' : f.kind === 'number' ? `${f.min}–${f.max}` : f.kind)),
        input,
      ),
      input,
    };
  });
  const explainOut = h('div', { id: 'explain-result', 'aria-live': 'polite' });
  const tryForm = h(
    'form',
    {
      class: 'facts',
      'aria-label': 'Facts to try',
      onsubmit: async (e) => {
        e.preventDefault();
        const facts = Object.fromEntries(
          factInputs.map(({ f, input }) => [f.name, f.kind === 'number' ? Number(input.value) : f.kind === 'boolean' ? input.value === 'true' : input.value]),
        );
        const { ok, data } = await api('POST', `/decisions/${table.decision}/explain`, { facts });
        if (!ok) return explainOut.replaceChildren(problemBox(data));
        if (data.problems) {
          state.explanation = null;
          draw();
          return explainOut.replaceChildren(
            h(
              'ul',
              { class: 'problems' },
              data.problems.map((p) => h('li', {}, p)),
            ),
          );
        }
        state.explanation = data.explanation;
        draw();
        const fired = data.explanation.rows.filter((r) => r.fired);
        const conditionRows = data.explanation.rows.flatMap((r) =>
          r.conditions.map((c, i) =>
            h(
              'tr',
              { class: r.firstFailed && c.at === r.firstFailed.at && c.operator === r.firstFailed.operator ? 'first-failure' : undefined },
              i === 0 ? h('th', { scope: 'row', rowspan: r.conditions.length }, r.row, r.fired ? ' ✔' : '') : null,
              h('td', {}, c.fact),
              h('td', {}, `${c.operator} ${json(c.expected)}`),
              h('td', {}, json(c.actual)),
              h('td', {}, c.passed ? 'yes' : 'no'),
            ),
          ),
        );
        explainOut.replaceChildren(
          h(
            'p',
            {},
            fired.length ? ['Row ', ...fired.map((r, i) => [i ? ', ' : '', h('strong', { class: 'deciding-row' }, r.row)]), ' decides: '] : 'No row decides: ',
            valueView(data.explanation.outcome),
          ),
          state.editing
            ? h('p', { class: 'note' }, 'Explained by the rules now serving, not by the edit: the preview of the impact shows what the edit changes.')
            : '',
          h(
            'details',
            {},
            h('summary', {}, 'Every condition of every row, with the actual values'),
            h(
              'table',
              { class: 'grid small' },
              h('thead', {}, h('tr', {}, h('th', {}, 'Row'), h('th', {}, 'Fact'), h('th', {}, 'Test'), h('th', {}, 'Actual'), h('th', {}, 'Holds'))),
              h('tbody', {}, conditionRows),
            ),
          ),
        );
      },
    },
    factInputs.map((x) => x.el),
    h('button', { type: 'submit' }, 'Explain this case'),
  );

  // ---- simulate
  const casesText = h('textarea', { id: 'cases', rows: 4, cols: 50, placeholder: `${table.facts.map((f) => f.name).join(',')}\n…` });
  const boundaries = h('input', { type: 'checkbox', id: 'boundaries' });
  const simulateOut = h('div', { id: 'simulate-result', 'aria-live': 'polite' });
  const simulateForm = h(
    'form',
    {
      'aria-label': 'Simulate many cases',
      onsubmit: async (e) => {
        e.preventDefault();
        const text = casesText.value.trim();
        const body = { boundaries: boundaries.checked, ...(text ? (/^[[-]/.test(text) ? { yaml: text } : { csv: text }) : {}) };
        const { ok, data } = await api('POST', `/decisions/${table.decision}/simulate`, body);
        if (!ok) return simulateOut.replaceChildren(problemBox(data));
        const facts = [...new Set(data.cases.flatMap((c) => Object.keys(c.facts)))];
        simulateOut.replaceChildren(
          h(
            'table',
            { class: 'grid small' },
            h('thead', {}, h('tr', {}, h('th', {}, '#'), ...facts.map((f) => h('th', {}, f)), h('th', {}, 'Row'), h('th', {}, 'Outcome'))),
            h(
              'tbody',
              {},
              data.cases.map((c, i) =>
                h(
                  'tr',
                  {},
                  h('td', { class: 'num' }, i + 1),
                  ...facts.map((f) => h('td', {}, f in c.facts ? json(c.facts[f]) : '')),
                  h('td', {}, c.row ?? h('em', {}, 'none')),
                  h('td', {}, c.problem ? h('span', { class: 'bad' }, c.problem) : valueView(c.outcome)),
                ),
              ),
            ),
          ),
        );
      },
    },
    h('label', { for: 'cases' }, 'Cases, as CSV with a header row of fact names, or a YAML list'),
    casesText,
    h('label', { class: 'inline' }, boundaries, ' add the boundary cases (every bound ±1, every enum value)'),
    h('button', { type: 'submit' }, 'Simulate'),
  );

  // ---- change
  const changeBar = h('div', { class: 'bar' });
  function drawChangeBar() {
    if (!state.editing) {
      changeBar.replaceChildren(
        h(
          'button',
          {
            type: 'button',
            id: 'edit',
            onclick: () => {
              state.editing = true;
              state.explanation = null;
              draw();
              drawChangeBar();
              check();
            },
          },
          'Edit this table',
        ),
        mode.edit
          ? ''
          : h('span', { class: 'note' }, ' This server does not save rule changes (start it with --sandbox or --edit); you can still edit and preview.'),
      );
      return;
    }
    const unused = table.facts.map((f) => f.name).filter((f) => !table.columns.when.includes(f));
    const newFact = h(
      'select',
      { id: 'new-fact', 'aria-label': 'Fact to add a condition on' },
      unused.map((f) => h('option', { value: f }, f)),
    );
    changeBar.replaceChildren(
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            const rows = editRows();
            rows.push({ id: `new-row-${rows.length + 1}`, when: {}, then: {} });
            state.rows = rows;
            draw();
            scheduleCheck();
          },
        },
        'Add a row',
      ),
      unused.length
        ? h(
            'span',
            {},
            newFact,
            h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  table.columns.when.push(newFact.value);
                  draw();
                  drawChangeBar();
                },
              },
              'Add a condition column',
            ),
          )
        : '',
      h('button', { type: 'button', id: 'preview', onclick: preview }, 'Preview the impact'),
      h('button', { type: 'button', id: 'save', onclick: save }, 'Save to ' + table.file),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            state.editing = false;
            state.rows = null;
            state.problems = [];
            impactBox.replaceChildren();
            draw();
            drawChangeBar();
          },
        },
        'Discard the edit',
      ),
    );
  }
  async function preview() {
    impactBox.replaceChildren(h('p', { class: 'busy' }, 'Running every decision over its boundary cases and the scenarios on both rule sets…'));
    const { ok, data } = await api('POST', `/decisions/${table.decision}/impact`, { rows: editRows() });
    if (!ok) return impactBox.replaceChildren(problemBox(data));
    if (!data.impact) {
      state.problems = data.problems;
      draw();
      return impactBox.replaceChildren(h('p', { class: 'bad' }, 'Fix the problems first: check found some.'));
    }
    impactBox.replaceChildren(impactView(data.impact));
  }
  async function save() {
    const { ok, data } = await api('PUT', `/decisions/${table.decision}`, { rows: editRows(), version: table.version });
    if (!ok) return saveBox.replaceChildren(problemBox(data));
    Object.assign(table, data.table);
    state.rows = null;
    state.editing = false;
    state.problems = [];
    draw();
    drawChangeBar();
    saveBox.replaceChildren(
      h('p', { class: 'good', role: 'status' }, data.saved ? `Saved ${data.file}; the server now answers with the new rules.` : 'Nothing changed.'),
    );
  }

  setView(
    `${table.title}`,
    h(
      'p',
      { class: 'meta' },
      h('code', {}, table.decision),
      ' · hit policy ',
      h('strong', {}, table.hitPolicy),
      table.spec ? [' · spec ', table.spec] : '',
      ' · ',
      h('code', {}, table.at),
    ),
    h('section', { 'aria-label': 'Rows' }, grid, problemsList),
    table.examples.length
      ? h(
          'details',
          { class: 'examples' },
          h('summary', {}, `The table's ${table.examples.length} examples, which check runs`),
          h(
            'table',
            { class: 'grid small' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Given'), h('th', {}, 'Expect'), h('th', {}, 'Where'))),
            h(
              'tbody',
              {},
              table.examples.map((e) =>
                h(
                  'tr',
                  {},
                  h(
                    'td',
                    {},
                    h(
                      'code',
                      {},
                      Object.entries(e.given)
                        .map(([k, v]) => `${k}=${json(v)}`)
                        .join(' '),
                    ),
                  ),
                  h(
                    'td',
                    {},
                    typeof e.expect === 'string'
                      ? e.expect
                      : h(
                          'code',
                          {},
                          Object.entries(e.expect)
                            .map(([k, v]) => `${k}=${json(v)}`)
                            .join(' '),
                        ),
                  ),
                  h('td', {}, h('code', { class: 'at', title: e.at }, shortAt(e.at))),
                ),
              ),
            ),
          ),
        )
      : '',
    h('section', { class: 'panel', 'aria-labelledby': 'change-h' }, h('h3', { id: 'change-h' }, 'Change'), changeBar, impactBox, saveBox),
    h(
      'div',
      { class: 'columns' },
      h('section', { class: 'panel', 'aria-labelledby': 'try-h' }, h('h3', { id: 'try-h' }, 'Try a case'), tryForm, explainOut),
      h('section', { class: 'panel', 'aria-labelledby': 'sim-h' }, h('h3', { id: 'sim-h' }, 'Simulate'), simulateForm, simulateOut),
    ),
  );
  draw();
  drawChangeBar();
  // From a trace link: try the facts it carried.
  if (params.get('facts')) {
    const facts = JSON.parse(params.get('facts'));
    for (const { f, input } of factInputs) if (f.name in facts) input.value = String(facts[f.name]);
    tryForm.requestSubmit();
  }
  document.getElementById(`row-${params.get('row')}`)?.scrollIntoView({ block: 'center' });
}

function impactView(x) {
  const s = x.summary;
  return h(
    'div',
    { class: 'impact' },
    h(
      'p',
      { class: s.changedRows + s.changedSteps ? 'bad' : 'good' },
      s.changedRows + s.changedSteps === 0
        ? 'No change: every boundary case and every scenario step answers as before.'
        : `This edit changes ${s.changedRows} decision outcome(s) (${s.changedCases} boundary cases) and ${s.changedPrices} price(s) in ${s.changedSteps} step(s) of ${s.scenarios} scenario(s).`,
    ),
    x.decisions.length
      ? h(
          'table',
          { class: 'grid small', 'aria-label': 'Changed decision outcomes' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Decision'), h('th', {}, 'Before'), h('th', {}, 'After'), h('th', {}, 'Cases that show it'))),
          h(
            'tbody',
            {},
            x.decisions.map((d) =>
              h(
                'tr',
                {},
                h('td', {}, d.decision),
                h('td', {}, `${d.from.row ?? 'none'} `, valueView(d.from.outcome)),
                h('td', {}, `${d.to.row ?? 'none'} `, valueView(d.to.outcome)),
                h(
                  'td',
                  {},
                  d.cases.slice(0, 3).map((c) =>
                    h(
                      'div',
                      {},
                      h(
                        'code',
                        {},
                        Object.entries(c)
                          .map(([k, v]) => `${k}=${json(v)}`)
                          .join(' '),
                      ),
                    ),
                  ),
                  d.cases.length > 3 ? `… ${d.cases.length - 3} more` : '',
                ),
              ),
            ),
          ),
        )
      : '',
    x.scenarios.length
      ? h(
          'table',
          { class: 'grid small', 'aria-label': 'Scenario steps that would change' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Scenario step'), h('th', {}, 'Status'), h('th', {}, 'Code'), h('th', {}, 'Prices'))),
          h(
            'tbody',
            {},
            x.scenarios.map((c) =>
              h(
                'tr',
                { class: 'changed-step' },
                h(
                  'td',
                  {},
                  h('code', {}, c.at ?? c.scenario),
                  ' ',
                  c.step,
                  c.missing ? h('div', { class: 'bad' }, `not run on the ${c.missing.on} rules: stopped at ${c.missing.failedStep ?? 'an earlier step'}`) : '',
                ),
                h('td', {}, c.status ? `${c.status.from} → ${c.status.to}` : ''),
                h('td', {}, c.code ? `${c.code.from ?? '–'} → ${c.code.to ?? '–'}` : ''),
                h(
                  'td',
                  {},
                  c.prices
                    .slice(0, 4)
                    .map((p) =>
                      h(
                        'div',
                        {},
                        `${p.at}: ${p.from ?? '–'} → ${p.to ?? '–'} ${p.currency} (${p.difference > 0 ? '+' : ''}${(p.difference / 100).toFixed(2)})`,
                      ),
                    ),
                  c.prices.length > 4 ? `… ${c.prices.length - 4} more` : '',
                ),
              ),
            ),
          ),
        )
      : '',
  );
}

// ---------------------------------------------------------------- try a whole offers request

async function offersView() {
  const [{ data: trips }, { data: ref }] = await Promise.all([api('GET', '/trips'), api('GET', '/reference')]);
  const cards = Object.keys(ref.cards.reductionCards);
  const passengers = h('fieldset', { id: 'passengers' }, h('legend', {}, 'Passengers'));
  const addPassenger = (age = 35, card = '') => {
    const n = passengers.querySelectorAll('.passenger').length + 1;
    passengers.append(
      h(
        'div',
        { class: 'passenger' },
        h('label', {}, `Passenger ${n} age `, h('input', { type: 'number', min: 0, max: 130, value: age, name: 'age', required: true, size: 4 })),
        h(
          'label',
          {},
          ' card ',
          h(
            'select',
            { name: 'card' },
            h('option', { value: '' }, 'none'),
            cards.map((c) => h('option', { value: c, selected: c === card }, c)),
          ),
        ),
      ),
    );
  };
  addPassenger(17, 'SWE_STUDENT');
  const out = h('div', { id: 'offers-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      'aria-label': 'Offers request',
      onsubmit: async (e) => {
        e.preventDefault();
        const body = {
          trip: form.trip.value,
          salesApplication: form.salesApplication.value,
          passengers: [...passengers.querySelectorAll('.passenger')].map((p) => ({
            age: Number(p.querySelector('[name=age]').value),
            cards: p.querySelector('[name=card]').value ? [p.querySelector('[name=card]').value] : [],
          })),
        };
        out.replaceChildren(h('p', { class: 'busy' }, 'Asking for offers…'));
        const { ok, data } = await api('POST', '/offers', body);
        if (!ok) return out.replaceChildren(problemBox(data));
        const offers = data.response.offers ?? [];
        out.replaceChildren(
          h(
            'div',
            { class: 'columns' },
            h(
              'section',
              { 'aria-labelledby': 'offers-h' },
              h('h3', { id: 'offers-h' }, data.status === 200 ? `${offers.length} offers` : `Refused (${data.status})`),
              data.status !== 200 ? problemBox(data.response) : '',
              offers.length
                ? h(
                    'table',
                    { class: 'grid small offers' },
                    h(
                      'thead',
                      {},
                      h(
                        'tr',
                        {},
                        h('th', {}, 'Offer'),
                        h('th', {}, 'Product'),
                        h('th', {}, 'Passenger types'),
                        h('th', {}, 'Admission prices'),
                        h('th', {}, 'Minimal price'),
                      ),
                    ),
                    h(
                      'tbody',
                      {},
                      offers.map((o) =>
                        h(
                          'tr',
                          {},
                          h(
                            'td',
                            {},
                            h('code', {}, o.offerId),
                            mode.sandbox ? [h('br'), h('a', { href: `#/seats?type=OFFER&id=${encodeURIComponent(o.offerId)}` }, 'seat map')] : '',
                          ),
                          h('td', {}, o.products?.[0]?.summary ?? ''),
                          h(
                            'td',
                            {},
                            (o.admissionOfferParts ?? [])
                              .flatMap((p) => p.appliedPassengerTypes ?? [])
                              .map((t) => `${t.passengerRef}: ${t.type} (${t.description})`)
                              .join(', '),
                          ),
                          h('td', { class: 'num admission-price' }, (o.admissionOfferParts ?? []).map((p) => money(p.price)).join(', ')),
                          h('td', { class: 'num minimal-price' }, money(o.offerSummary?.minimalPrice)),
                        ),
                      ),
                    ),
                  )
                : '',
              (data.response.warnings?.warnings ?? []).map((w) => h('p', { class: 'note' }, w.detail)),
              h(
                'details',
                {},
                h('summary', {}, 'The request and the whole answer (JSON)'),
                h('pre', {}, JSON.stringify(data.request, null, 2)),
                h('pre', {}, JSON.stringify(data.response, null, 2)),
              ),
            ),
            h(
              'section',
              { 'aria-labelledby': 'trace-h' },
              h('h3', { id: 'trace-h' }, 'Rule trace'),
              h('p', { class: 'note' }, 'Each decision the engine made, the row that decided and the facts it saw. Follow a row to its table.'),
              traceList(data.traces),
            ),
          ),
        );
      },
    },
    h(
      'label',
      {},
      'Trip ',
      h(
        'select',
        { name: 'trip' },
        trips.map((t) => h('option', { value: t.name }, `${t.name} (${t.summary})`)),
      ),
    ),
    ' ',
    h(
      'label',
      {},
      'Sales application ',
      h(
        'select',
        { name: 'salesApplication' },
        ref.salesApplications.map((s) => h('option', { value: s.code }, s.code)),
      ),
    ),
    passengers,
    h('button', { type: 'button', onclick: () => addPassenger() }, 'Add a passenger'),
    ' ',
    h('button', { type: 'submit' }, 'Ask for offers'),
  );
  setView(
    'Try an offers request',
    h('p', {}, 'An offers request from a fixture trip of the scenarios and the passengers\u2019 ages and cards, answered by the rules now serving.'),
    form,
    out,
  );
}

// ---------------------------------------------------------------- error catalogue and reference data

async function errorsView() {
  const { data } = await api('GET', '/errors');
  setView(
    'Error catalogue',
    h('p', {}, 'rules/errors.yaml: every error an answer can carry, in both languages, and the decision rows that raise it.'),
    h(
      'table',
      { class: 'grid small' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Code'), h('th', {}, 'Status'), h('th', {}, 'en-GB'), h('th', {}, 'sv-SE'), h('th', {}, 'Raised by'))),
      h(
        'tbody',
        {},
        data.map((e) =>
          h(
            'tr',
            { id: `error-${e.code}` },
            h('th', { scope: 'row' }, h('a', { href: `/errors/${e.code}` }, e.code)),
            h('td', {}, e.status),
            ...['en-GB', 'sv-SE'].map((l) => h('td', { lang: l }, h('strong', {}, e.texts[l]?.title ?? ''), h('br'), e.texts[l]?.detail ?? '')),
            h(
              'td',
              {},
              e.raisedBy.map((r) => h('div', {}, h('a', { href: `#/tables/${r.decision}` }, r.decision), ' ', h('code', {}, r.at))),
            ),
          ),
        ),
      ),
    ),
  );
}

async function referenceView() {
  const { data } = await api('GET', '/reference');
  const simple = (title, head, rows) =>
    h(
      'section',
      {},
      h('h3', {}, title),
      h(
        'table',
        { class: 'grid small' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            head.map((x) => h('th', {}, x)),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map((r) =>
            h(
              'tr',
              {},
              r.map((c) => h('td', {}, c)),
            ),
          ),
        ),
      ),
    );
  setView(
    'Reference data',
    simple(
      'Product categories',
      ['Code', 'Name', 'Night', 'Reservation', 'Products'],
      Object.entries(data.products.productCategories).map(([code, c]) => [
        code,
        valueView(c.name),
        c.night ? 'yes' : 'no',
        c.reservation,
        c.products.join(', '),
      ]),
    ),
    simple(
      'Reduction cards',
      ['Code', 'Effect', 'Name'],
      Object.entries(data.cards.reductionCards).map(([code, c]) => [code, c.effect, valueView(c.name)]),
    ),
    simple(
      'Sales applications',
      ['Code', 'Currency', 'Station codes', 'OSDM version', 'On hold', 'Release', 'Place map'],
      data.salesApplications.map((s) => [
        s.code,
        s.currency,
        s.stationCodes,
        s.osdmVersion ?? '',
        s.permissions.onHold ? 'yes' : 'no',
        s.permissions.release ? 'yes' : 'no',
        s.permissions.placeMap ? 'yes' : 'no',
      ]),
    ),
    simple(
      'Stations',
      ['Name', 'x_swe', 'UIC', 'Country', 'Airport'],
      data.stations.map((s) => [s.name, s.x_swe ?? '', s.uic ?? '', s.country, s.airport ? 'yes' : '']),
    ),
  );
}

// ---------------------------------------------------------------- scenarios and coverage

function needsAnalyst(what) {
  return token() ? '' : h('p', { class: 'note' }, `${what} needs an analyst\u2019s token: sign in above.`);
}

async function runScenarios(tag, out) {
  out.replaceChildren(h('p', { class: 'busy' }, 'Running the scenarios…'));
  const { ok, data } = await api('POST', '/scenarios/run', tag ? { tag } : {});
  if (!ok) {
    out.replaceChildren(problemBox(data));
    return undefined;
  }
  lastRun = data;
  return data;
}

async function scenariosView() {
  const { data: list } = await api('GET', '/scenarios');
  const tags = [...new Set(list.flatMap((s) => s.tags))].sort();
  const out = h('div', { id: 'run-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      'aria-label': 'Run scenarios',
      onsubmit: async (e) => {
        e.preventDefault();
        const run = await runScenarios(form.tag.value, out);
        if (run) out.replaceChildren(runView(run));
      },
    },
    h(
      'label',
      {},
      'Tag ',
      h(
        'select',
        { name: 'tag' },
        h('option', { value: '' }, `every scenario (${list.length})`),
        tags.map((t) => h('option', { value: t }, t)),
      ),
    ),
    ' ',
    h('button', { type: 'submit' }, 'Run against the serving rules'),
  );
  setView('Scenarios', needsAnalyst('Running scenarios'), form, out);
  if (lastRun) out.replaceChildren(runView(lastRun));
}

function runView(run) {
  return h(
    'div',
    {},
    h('p', { class: run.failed ? 'bad' : 'good', role: 'status' }, `${run.passed} passed, ${run.failed} failed`),
    run.scenarios.map((s) =>
      h(
        'details',
        { class: `scenario ${s.passed ? 'passed' : 'failed'}`, open: !s.passed },
        h('summary', {}, s.passed ? '✔ ' : '✘ ', s.name, ' ', h('code', {}, s.file)),
        s.problems.map((p) => h('p', { class: 'bad' }, p)),
        h(
          'ol',
          { class: 'steps' },
          s.steps.map((st) =>
            h(
              'li',
              { class: st.skipped ? 'skipped' : st.passed ? 'passed' : 'failed' },
              st.skipped ? '– ' : st.passed ? '✔ ' : '✘ ',
              st.name,
              st.request ? h('code', {}, ` ${st.request.method} ${st.request.path}`) : '',
              st.status ? ` → ${st.status}` : '',
              st.error ? h('pre', { class: 'bad' }, st.error) : '',
              st.mismatches.length
                ? h(
                    'ul',
                    { class: 'diff' },
                    st.mismatches.map((m) =>
                      h(
                        'li',
                        {},
                        h('code', {}, m.path),
                        `: expected ${json(m.expected)}, got ${json(m.actual)}`,
                        m.at ? h('code', { class: 'at' }, ` ${m.at}`) : '',
                      ),
                    ),
                  )
                : '',
              st.traces?.length ? h('details', {}, h('summary', {}, 'Rule traces'), traceList(st.traces)) : '',
            ),
          ),
        ),
      ),
    ),
  );
}

async function coverageView() {
  const out = h('div', { id: 'coverage-result' });
  const draw = (run) => {
    const files = run.coverage.scenarios;
    const short = (f) => f.replace(/^.*scenarios\//, '').replace(/\.ya?ml$/, '');
    out.replaceChildren(
      h(
        'p',
        { class: run.coverage.unexercised.length ? 'bad' : 'good' },
        run.coverage.unexercised.length ? `${run.coverage.unexercised.length} rows no scenario exercises: ` : 'Every row is exercised.',
        run.coverage.unexercised.map((r, i) => [i ? ', ' : '', h('code', { class: 'unexercised' }, r)]),
      ),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid matrix', 'aria-label': 'Rows by scenarios' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Decision row'),
              files.map((f, i) => h('th', { title: f, class: 'rot' }, h('span', {}, short(f) || String(i + 1)))),
            ),
          ),
          h(
            'tbody',
            {},
            run.coverage.rows.map((r) =>
              h(
                'tr',
                { class: r.by.length ? undefined : r.unreachable ? 'unreachable' : 'unexercised' },
                h(
                  'th',
                  { scope: 'row', title: r.unreachable ? `listed as unreachable: ${r.unreachable}` : undefined },
                  h('a', { href: `#/tables/${r.decision}?row=${encodeURIComponent(r.row)}` }, `${r.decision}#${r.row}`),
                  r.unreachable ? ' (unreachable)' : '',
                ),
                files.map((f) => h('td', { class: 'mark' }, r.by.includes(f) ? h('span', { title: `${r.decision}#${r.row} by ${f}` }, '●') : '')),
              ),
            ),
          ),
        ),
      ),
    );
  };
  const button = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        const run = await runScenarios('', out);
        if (run) draw(run);
      },
    },
    'Run every scenario for coverage',
  );
  setView('Coverage', h('p', {}, 'Which decision rows each scenario exercises, and the rows none does.'), needsAnalyst('Running scenarios'), button, out);
  if (lastRun) draw(lastRun);
}

// ---------------------------------------------------------------- seats and the request journal

async function seatsView(params) {
  if (!mode.sandbox) return setView('Seats', h('p', {}, 'Seat maps of stored offers and bookings are shown on a sandbox only.'));
  const out = h('div', { id: 'seats-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      'aria-label': 'Seat map of',
      onsubmit: async (e) => {
        e.preventDefault();
        const q = new URLSearchParams({ contextType: form.contextType.value, contextId: form.contextId.value.trim() });
        const { ok, data } = await api('GET', `/seats?${q}`);
        if (!ok) return out.replaceChildren(problemBox(data));
        out.replaceChildren(
          ...(data.legs.length ? data.legs : [null]).map((leg) =>
            leg
              ? h(
                  'section',
                  {},
                  h('h3', {}, `Leg ${leg.legId}`),
                  h(
                    'p',
                    {},
                    leg.held.length
                      ? `Places held by this booking: ${leg.held.map((p) => `coach ${p.coach} place ${p.place}`).join(', ')}`
                      : 'No place held by this one; grey places are held by other bookings.',
                  ),
                  leg.coaches.map((c) =>
                    h(
                      'figure',
                      { class: 'coach' },
                      h('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(c.svg)}`, alt: `Coach ${c.number} of leg ${leg.legId}` }),
                      h('figcaption', {}, `Coach ${c.number}`),
                    ),
                  ),
                )
              : h('p', {}, 'It has no reservations, so no seat map.'),
          ),
        );
      },
    },
    h(
      'label',
      {},
      'Of ',
      h(
        'select',
        { name: 'contextType' },
        h('option', { value: 'BOOKING', selected: params.get('type') !== 'OFFER' }, 'booking'),
        h('option', { value: 'OFFER', selected: params.get('type') === 'OFFER' }, 'offer'),
      ),
    ),
    ' ',
    h('label', {}, 'id ', h('input', { name: 'contextId', required: true, value: params.get('id') ?? '', size: 40 })),
    ' ',
    h('button', { type: 'submit' }, 'Draw the seat map'),
  );
  setView(
    'Seats',
    h(
      'p',
      {},
      'The place map of an offer or a booking on this sandbox, coach by coach: free, held by others (allocated), and this booking\u2019s own (selected).',
    ),
    form,
    out,
  );
  if (params.get('id')) form.requestSubmit();
}

/** The Requestor header is Base64 of JSON: shown as the JSON too. */
function decoded(base64) {
  try {
    return atob(base64);
  } catch {
    return 'not Base64';
  }
}

async function journalView() {
  if (!mode.sandbox) return setView('Request journal', h('p', {}, 'The request journal is kept on a sandbox only.'));
  const out = h('div', { id: 'journal-result' });
  const load = async () => {
    const { ok, data } = await api('GET', '/journal');
    // It holds every client's requests, personal data included: only a token reads it (an analyst's, masked).
    if (!ok) return out.replaceChildren(needsAnalyst('Reading the request journal'), problemBox(data));
    out.replaceChildren(
      h(
        'p',
        {},
        `The latest ${data.entries.length} of at most ${data.size} requests (rules/limits.yaml studioJournalSize), newest first; names, e-mails and other personal data masked unless the server was started with --journal-personal-data.`,
      ),
      ...data.entries.map((e) => {
        const ids = [
          e.response.body?.booking?.id && ['BOOKING', e.response.body.booking.id],
          ...(e.response.body?.offers ?? []).slice(0, 1).map((o) => ['OFFER', o.offerId]),
        ].filter(Boolean);
        return h(
          'details',
          { class: `entry ${e.status >= 400 ? 'failed' : ''}` },
          h(
            'summary',
            {},
            h('code', {}, `${e.method} ${e.url}`),
            ` → ${e.status}`,
            e.client ? ` · ${e.client}` : '',
            e.response.body?.code ? ` ${e.response.body.code}` : '',
            ` · ${e.ms} ms · ${e.at}`,
          ),
          ids.map(([type, id]) => h('p', {}, h('a', { href: `#/seats?type=${type}&id=${encodeURIComponent(id)}` }, `Seat map of ${type.toLowerCase()} ${id}`))),
          h(
            'div',
            { class: 'columns' },
            h(
              'section',
              {},
              h('h4', {}, 'Request'),
              h(
                'pre',
                {},
                Object.entries(e.request.headers)
                  .map(([k, v]) => `${k}: ${v}${k === 'requestor' ? `   (${decoded(v)})` : ''}`)
                  .join('\n'),
              ),
              e.request.body !== undefined ? h('pre', {}, JSON.stringify(e.request.body, null, 2)) : '',
            ),
            h(
              'section',
              {},
              h('h4', {}, 'Response'),
              h('pre', {}, typeof e.response.body === 'string' ? e.response.body : JSON.stringify(e.response.body, null, 2)),
            ),
          ),
          h('h4', {}, 'Rule trace'),
          e.traces.length ? traceList(e.traces) : h('p', {}, 'No rule decided this answer.'),
        );
      }),
    );
  };
  setView('Request journal', h('button', { type: 'button', onclick: load }, 'Refresh'), out);
  await load();
}

// ---------------------------------------------------------------- sign-in and routing

function drawMode(refused) {
  const el = document.getElementById('mode');
  el.textContent = `${mode.sandbox ? 'Sandbox' : 'Server'} · ${mode.edit ? 'rules may be saved' : 'read-only rules'} · ${refused ?? (token() ? 'signed in as analyst' : 'not signed in')}`;
  el.classList.toggle('bad', refused !== undefined);
}

document.getElementById('sign-in').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.target;
  const res = await fetch('/oauth2/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: form.client.value, client_secret: form.secret.value, scope: 'analyst' }),
  });
  const data = await res.json().catch(() => ({}));
  form.secret.value = '';
  if (res.ok) {
    sessionStorage.setItem(TOKEN, data.access_token);
    drawMode();
    return;
  }
  sessionStorage.removeItem(TOKEN);
  drawMode(`sign-in refused: ${data.error_description ?? data.error ?? res.status}`);
});

async function route() {
  const [path, query] = (location.hash.slice(1) || '/tables').split('?');
  const params = new URLSearchParams(query ?? '');
  const [, view, arg] = path.split('/');
  try {
    if (view === 'tables' && arg) await tableView(decodeURIComponent(arg), params);
    else if (view === 'offers') await offersView();
    else if (view === 'errors') await errorsView();
    else if (view === 'reference') await referenceView();
    else if (view === 'scenarios') await scenariosView();
    else if (view === 'coverage') await coverageView();
    else if (view === 'seats') await seatsView(params);
    else if (view === 'journal') await journalView();
    else await tablesView();
  } catch (err) {
    setView('Something went wrong', h('pre', {}, String(err?.stack ?? err)));
  }
  main.focus({ preventScroll: true });
  if (!new URLSearchParams(location.hash.split('?')[1] ?? '').get('row')) window.scrollTo(0, 0);
}

mode = (await api('GET', '/mode')).data;
drawMode();
window.addEventListener('hashchange', route);
await route();

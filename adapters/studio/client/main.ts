import { byId, h, setView } from './dom.ts';
import { coverageView } from './coverage.ts';
import { errorsView } from './errors.ts';
import { graphView } from './graph.ts';
import { journalView } from './journal.ts';
import { drawMode, readMode, signInForm } from './mode.ts';
import { offersView } from './offers.ts';
import { referenceView } from './reference.ts';
import { draftView } from './releases/draft.ts';
import { releasesView } from './releases/list.ts';
import { scenariosView } from './scenarios.ts';
import { seatsView } from './seats.ts';
import { tableView } from './table/view.ts';
import { tablesView } from './tables.ts';

/**
 * The studio's page script: each view is drawn from the JSON endpoints under /studio/api (documented in
 * /openapi.json, tag Studio), the view named by the URL fragment (`#/tables/fareFactor?row=student`).
 */
async function route(): Promise<void> {
  const [path = '', query] = (location.hash.slice(1) || '/tables').split('?');
  const params = new URLSearchParams(query ?? '');
  const [, view, arg, item] = path.split('/');
  try {
    if (view === 'tables' && arg) await tableView(decodeURIComponent(arg), params);
    else if (view === 'graph') await graphView();
    else if (view === 'offers') await offersView();
    else if (view === 'errors') await errorsView();
    else if (view === 'reference') await referenceView();
    else if (view === 'scenarios') await scenariosView(params);
    else if (view === 'coverage') coverageView();
    else if (view === 'seats') seatsView(params);
    else if (view === 'journal') await journalView();
    else if (view === 'releases' && arg === 'drafts' && item) await draftView(decodeURIComponent(item));
    else if (view === 'releases') await releasesView();
    else await tablesView();
  } catch (err) {
    setView('Something went wrong', h('pre', {}, String((err as Error | undefined)?.stack ?? err)));
  }
  byId('main').focus({ preventScroll: true });
  if (!new URLSearchParams(location.hash.split('?')[1] ?? '').get('row')) window.scrollTo(0, 0);
}

signInForm();
await readMode();
drawMode();
window.addEventListener('hashchange', () => void route());
await route();

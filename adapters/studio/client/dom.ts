/**
 * Building the page with the DOM API only: every text goes in through `textContent` (a string child), never as
 * HTML, so nothing a rule file or an answer says can become markup.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

type Attribute = string | number | boolean | null | undefined | ((event: Event) => void);

/** An element with its attributes (`on…` ones are listeners; false, null and undefined leave one out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, Attribute> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...nodes(children));
  return el;
}

/** Children as `append` and `replaceChildren` take them: lists flattened, the left-out ones dropped. */
function nodes(children: readonly Child[]): Array<Node | string> {
  return children.flatMap((c): Array<Node | string> => {
    if (c === undefined || c === null || c === false) return [];
    if (c instanceof Node || typeof c === 'string') return [c];
    return typeof c === 'number' ? [String(c)] : nodes(c);
  });
}

/** The element the page's HTML (adapters/studio/page.ts) gives this id. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** Shows a view: its title as the heading and the document's title, the nav link to it marked current. */
export function setView(title: string, ...content: Child[]): void {
  document.title = `${title} · signalbox studio`;
  byId('main').replaceChildren(h('h2', {}, title), ...nodes(content));
  for (const a of document.querySelectorAll('nav a')) a.toggleAttribute('aria-current', location.hash.startsWith(a.getAttribute('href') ?? ''));
}

/** Replaces what an element shows. */
export const show = (el: Element, ...content: Child[]): void => el.replaceChildren(...nodes(content));

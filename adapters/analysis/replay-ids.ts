/**
 * The ids a server makes up (offers, bookings, parts, fulfillments, refund offers…) differ between the recorded run
 * and a replay. A replay learns which of its ids stands for which recorded one by walking the recorded answer and its
 * own side by side: where both hold a string under an id-valued key at the same place, the recorded id is the
 * replayed one from then on. Later requests name the recorded ids; `url` and `body` put the replay's own in their
 * place.
 *
 * An id a recorded answer holds that this side's answer does not (this side refused what the recording was
 * granted) stands for nothing here from then on, unless the request itself named it: a later request naming it is
 * sent with the recorded id, which this side never makes (replay-side.ts), rather than with what an earlier answer
 * paired it with (a journal recorded scenario by scenario counts `offer-1` again in every scenario).
 */
export interface IdMap {
  /** Pairs the ids of a recorded answer with those at the same places of the replayed answer. */
  learn(recorded: unknown, replayed: unknown, request: { url: string; body?: unknown }): void;
  /** The URL with every path segment and query value that is a recorded id replaced by the replay's. */
  url(url: string): string;
  /** The body with every string that is a recorded id replaced by the replay's. */
  body(body: unknown): unknown;
}

/** Keys whose values are ids: `id`, `offerId`, `passengerIds`, `bookingRef`, `passengerRefs`, `bookingCode`, `controlNumber`. */
const ID_KEY = /^(id|\w+Ids?|\w+Refs?|bookingCode|controlNumber)$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const isMoney = (v: Json) => typeof v['currency'] === 'string' && typeof v['amount'] === 'number';

/** An item of a list as it reads without its ids and prices: how the same offer is found in a list of another length. */
function likeness(value: unknown): string {
  const strip = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => strip(x, key));
    if (isObject(v)) return isMoney(v) ? null : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x, k)]));
    return typeof v === 'string' && key !== undefined && ID_KEY.test(key) ? null : v;
  };
  return JSON.stringify(strip(value));
}

export function idMap(): IdMap {
  const ids = new Map<string, string>();

  /**
   * A recorded id, or one made of a recorded id and more after a colon (an ancillary's `offer-3:p1:leg:MEALS`, made
   * of its offer's id), as this side knows it.
   */
  const mapped = (value: string): string => {
    const known = ids.get(value);
    if (known !== undefined) return known;
    const colon = value.indexOf(':');
    if (colon < 0) return value;
    const head = ids.get(value.slice(0, colon));
    return head === undefined ? value : head + value.slice(colon);
  };

  /** Walks both answers; `paired` gets each recorded id this side holds too, `unpaired` each it does not. */
  const walk = (recorded: unknown, replayed: unknown, key: string | undefined, paired: Map<string, string>, unpaired: Set<string>): void => {
    if (typeof recorded === 'string') {
      if (key === undefined || !ID_KEY.test(key)) return;
      if (typeof replayed === 'string') paired.set(recorded, replayed);
      else unpaired.add(recorded);
      return;
    }
    if (Array.isArray(recorded)) {
      const other: unknown[] = Array.isArray(replayed) ? replayed : [];
      if (other.length === recorded.length) recorded.forEach((item, i) => walk(item, other[i], key, paired, unpaired));
      else {
        // A list of another length (B offers one product fewer): an item pairs with the first like it.
        const left = other.map((item) => ({ item, like: likeness(item) }));
        for (const item of recorded) {
          const like = likeness(item);
          const at = left.findIndex((o) => o.like === like);
          walk(item, at < 0 ? undefined : left.splice(at, 1)[0]!.item, key, paired, unpaired);
        }
      }
      return;
    }
    if (isObject(recorded)) {
      const other = isObject(replayed) ? replayed : {};
      for (const [k, v] of Object.entries(recorded)) walk(v, other[k], k, paired, unpaired);
    }
  };

  const inBody = (value: unknown): unknown => {
    if (typeof value === 'string') return mapped(value);
    if (Array.isArray(value)) return value.map(inBody);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inBody(v)]));
    return value;
  };

  const segment = (part: string): string => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return part;
    }
    const replaced = mapped(decoded);
    return replaced === decoded ? part : encodeURIComponent(replaced);
  };

  return {
    learn(recorded, replayed, request) {
      const paired = new Map<string, string>();
      const unpaired = new Set<string>();
      walk(recorded, replayed, undefined, paired, unpaired);
      for (const [from, to] of paired) ids.set(from, to);
      if (unpaired.size === 0) return;
      // What the request itself named was there before it: a refusal leaves it as it was.
      const asked = `${request.url}\n${typeof request.body === 'string' ? request.body : (JSON.stringify(request.body) ?? '')}`;
      for (const id of unpaired) if (!paired.has(id) && !asked.includes(id)) ids.delete(id);
    },
    url(url) {
      if (ids.size === 0) return url;
      const q = url.indexOf('?');
      const path = (q < 0 ? url : url.slice(0, q)).split('/').map(segment).join('/');
      if (q < 0) return path;
      const query = url
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          return eq < 0 ? pair : `${pair.slice(0, eq + 1)}${segment(pair.slice(eq + 1))}`;
        })
        .join('&');
      return `${path}?${query}`;
    },
    body: (body) => (ids.size === 0 || typeof body === 'string' ? body : inBody(body)),
  };
}

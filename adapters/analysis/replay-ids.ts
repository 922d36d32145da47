/**
 * The ids a server makes up (offers, bookings, parts, fulfillments, refund offers…) differ between the recorded run
 * and a replay. A replay learns which of its ids stands for which recorded one by walking the recorded answer and its
 * own in parallel: where both have a string under an id-valued key at the same place and the two differ, the
 * recorded id is the replayed one from then on. Later requests name the recorded ids; `inRequest` puts the replay's
 * own in their place.
 */
export interface IdMap {
  /** Pairs the ids of a recorded answer with those at the same places of the replayed answer. */
  learn(recorded: unknown, replayed: unknown): void;
  /** The URL with every path segment and query value that is a recorded id replaced by the replay's. */
  url(url: string): string;
  /** The body with every string that is a recorded id replaced by the replay's. */
  body(body: unknown): unknown;
}

/** Keys whose values are ids: `id`, `offerId`, `passengerIds`, `bookingRef`, `passengerRefs`, `bookingCode`, `controlNumber`. */
const ID_KEY = /^(id|\w+Ids?|\w+Refs?|bookingCode|controlNumber)$/;

export function idMap(): IdMap {
  const ids = new Map<string, string>();

  /**
   * A recorded id, or one made of a recorded id and more after a colon (an ancillary's `offer-3:p1:leg:MEALS`, made
   * of its offer's id), as the replay knows it.
   */
  const mapped = (value: string): string => {
    const known = ids.get(value);
    if (known !== undefined) return known;
    const colon = value.indexOf(':');
    if (colon < 0) return value;
    const head = ids.get(value.slice(0, colon));
    return head === undefined ? value : head + value.slice(colon);
  };

  const learn = (recorded: unknown, replayed: unknown, key: string | undefined): void => {
    if (typeof recorded === 'string') {
      if (key !== undefined && ID_KEY.test(key) && typeof replayed === 'string' && recorded !== replayed) ids.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded)) {
      if (Array.isArray(replayed)) recorded.forEach((item, i) => learn(item, replayed[i], key));
      return;
    }
    if (recorded && typeof recorded === 'object' && replayed && typeof replayed === 'object' && !Array.isArray(replayed)) {
      const other = replayed as Record<string, unknown>;
      for (const [k, v] of Object.entries(recorded)) if (k in other) learn(v, other[k], k);
    }
  };

  const inBody = (value: unknown): unknown => {
    if (typeof value === 'string') return mapped(value);
    if (Array.isArray(value)) return value.map(inBody);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inBody(v)]));
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
    learn: (recorded, replayed) => learn(recorded, replayed, undefined),
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

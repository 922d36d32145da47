import type { FastifyInstance } from 'fastify';

/** An HTTP route of the server as Fastify knows it: `POST /v3/bookings/:bookingId/fulfillment`. */
export interface Route {
  method: string;
  url: string;
}

/**
 * Every route of a ready Fastify app, read off `printRoutes({ commonPrefix: false })` (Fastify has no
 * list API, and its onRoute hook would have to be added before the routes are). Each tree line is
 * `<indent>├── <segment> (METHOD, …)`; a route's url is its segments from the root down. HEAD routes
 * Fastify adds for each GET are left out.
 */
export function listRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const url = (prefixes[depth - 1] ?? '') + m[2]!;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) routes.push({ method, url });
  }
  return routes.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/** The route a request path took, matching `:param` segments to any one segment. */
export function routeOf(routes: readonly Route[], method: string, path: string): Route | undefined {
  const parts = path.split('?')[0]!.replace(/\/$/, '').split('/');
  return routes.find((r) => {
    if (r.method !== method.toUpperCase()) return false;
    const pattern = r.url.split('/');
    return pattern.length === parts.length && pattern.every((p, i) => p.startsWith(':') ? parts[i] !== '' : p === parts[i]);
  });
}

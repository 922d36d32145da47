import type { Engine } from '../../engine/index.ts';
import { buildServer } from '../http/server.ts';
import { memoryStore } from '../store/memory.ts';
import { listRoutes, type Route } from './routes.ts';

/** The API's routes as this version of the server defines them (sandbox controls left out): the coverage denominator. */
export async function apiRoutes(engine: Engine): Promise<Route[]> {
  const app = await buildServer({ engine, store: memoryStore(), sandbox: false, jwtSecret: 'routes-only' });
  await app.ready();
  try {
    return listRoutes(app);
  } finally {
    await app.close();
  }
}

import type { z } from 'zod';
import type { Problem as ProblemSchema } from '../../http/openapi/problem.ts';

/** A Problem answer (RFC 9457), as the server sends it. */
export type Problem = z.infer<typeof ProblemSchema>;

const TOKEN = 'signalbox-studio-token';

/** The analyst's access token, kept for the tab's session only. */
export const token = (): string | null => sessionStorage.getItem(TOKEN);
export const keepToken = (value: string): void => sessionStorage.setItem(TOKEN, value);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN);

/** An answer of the studio's endpoints: what the endpoint documents, or a Problem (undefined when the body is not JSON). */
export type Answer<T> = { ok: true; status: number; data: T } | { ok: false; status: number; data: Problem | undefined };

/** A call of /studio/api, with the analyst's token when there is one. */
export async function api<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const bearer = token();
  if (bearer) headers['authorization'] = `Bearer ${bearer}`;
  const res = await fetch(`/studio/api${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const data: unknown = await res.json().catch(() => undefined);
  return res.ok ? { ok: true, status: res.status, data: data as T } : { ok: false, status: res.status, data: data as Problem | undefined };
}

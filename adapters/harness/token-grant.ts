import { StepError } from './step-error.ts';

/**
 * A client's access token from the target's token endpoint (CONTRACT §3: form fields), for the scenarios' steps and
 * for a live sandbox's controls. A refused grant is a StepError naming the client and the answer.
 */
type Send = (x: { method: string; path: string; headers: Record<string, string>; body?: unknown }) => Promise<{ status: number; body: unknown }>;

export async function grantToken(send: Send, client: string, secret: string): Promise<string> {
  const res = await send({
    method: 'POST',
    path: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret }).toString(),
  });
  const token = (res.body as { access_token?: string } | undefined)?.access_token;
  if (res.status !== 200 || !token) throw new StepError(`the token request for ${client} answered ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

import type { EditMode } from '../../http/openapi/studio-schemas.ts';
import { api, token } from './api.ts';
import { byId } from './dom.ts';
import { signedIn, signedOut } from './session.ts';

/** What the server allows (GET /studio/api/mode): read once when the page loads. */
export let mode: EditMode = { edit: false, sandbox: false, scenarios: [] };

export async function readMode(): Promise<void> {
  const answer = await api<EditMode>('GET', '/mode');
  if (answer.ok) mode = answer.data;
}

/** The line beside the sign-in form: the server's mode and who is signed in (or why a sign-in was refused). */
export function drawMode(refused?: string): void {
  const el = byId('mode');
  el.textContent = `${mode.sandbox ? 'Sandbox' : 'Server'} · ${mode.edit ? 'rules may be saved' : 'read-only rules'} · ${refused ?? (token() ? 'signed in as analyst' : 'not signed in')}`;
  el.classList.toggle('bad', refused !== undefined);
  byId('sign-out').hidden = !token();
}

/**
 * The sign-in form: client credentials for a token with the `analyst` scope, and `approver` when the client has it
 * (POST /oauth2/token), and the button
 * that forgets the token again (on a shared screen, or to see the page as a visitor does).
 */
export function signInForm(): void {
  const form = byId<HTMLFormElement>('sign-in');
  const client = form.querySelector<HTMLInputElement>('[name=client]')!;
  const secret = form.querySelector<HTMLInputElement>('[name=secret]')!;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void signIn();
  });
  byId('sign-out').addEventListener('click', () => {
    signedOut();
    drawMode();
  });
  const tokenFor = async (scope: string) => {
    const res = await fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.value, client_secret: secret.value, scope }),
    });
    return { res, data: (await res.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string } };
  };
  async function signIn() {
    // An approver's token carries `approver` too (deciding drafts of releases); a client without it signs in as an analyst.
    let { res, data } = await tokenFor('analyst approver');
    if (data.error === 'invalid_scope') ({ res, data } = await tokenFor('analyst'));
    secret.value = '';
    if (res.ok && data.access_token) {
      signedIn(data.access_token);
      drawMode();
      return;
    }
    signedOut();
    drawMode(`sign-in refused: ${data.error_description ?? data.error ?? res.status}`);
  }
}

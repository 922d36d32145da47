import * as S from '../openapi/schemas.ts';
import { operation, type Operation } from './operation.ts';

/** The token endpoint (spec §5, CONTRACT §3), registered by hand (token.ts): it reads forms and answers RFC 6749 errors. */
export const oauth: Operation[] = [
  operation({
    method: 'POST',
    path: '/oauth2/token',
    summary: 'Get an access token (client credentials)',
    section: 'spec §5, CONTRACT §3',
    tag: 'OAuth',
    access: 'client',
    description:
      'RFC 6749 §4.4. The client authenticates with HTTP Basic or with client_id and client_secret fields. ' +
      'Errors are RFC 6749 §5.2 bodies, not Problems. The answer carries Cache-Control: no-store.',
    request: { schema: S.TokenForm, required: true, contentType: 'application/x-www-form-urlencoded' },
    responses: { 200: { description: 'A bearer token.', schema: S.TokenGrant } },
  }),
];

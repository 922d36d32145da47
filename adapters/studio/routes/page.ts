import { z } from 'zod';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import { operation, type Operation } from '../../http/operations/operation.ts';
import { studioAsset, studioPage } from '../page.ts';
import { studioEntry } from './studio.ts';

const html = { description: 'The studio page (HTML); its script draws the view the URL fragment names.', schema: z.string(), contentType: 'text/html' };

/** The page at any path of the studio but its endpoints (its script reads the fragment). */
const page = async () => ({
  type: 'text/html; charset=utf-8',
  headers: { 'cache-control': 'no-cache', 'content-security-policy': studioPage.csp },
  body: studioPage.html,
});

/** The page and its two files. */
export const pageOperations: Operation[] = [
  operation({
    method: 'GET',
    path: '/studio',
    ...studioEntry,
    summary: 'The analysts\u2019 workbench',
    access: 'public',
    responses: { 200: html },
    handle: page,
  }),
  operation({
    method: 'GET',
    path: '/studio/*',
    // A path under /studio/api/ is not the page: there GET is 404, or 405 where another method is taken
    // (`POST /studio/api/scenarios/run`).
    notUnder: '/studio/api/',
    ...studioEntry,
    summary: 'The workbench at any deeper path',
    description: 'Any path but those under /studio/api/, which are the endpoints below.',
    access: 'public',
    responses: { 200: html },
    handle: page,
  }),
  operation({
    method: 'GET',
    path: '/studio/assets/{name}',
    ...studioEntry,
    summary: 'The page\u2019s script and style sheet',
    access: 'public',
    problems: { 404: 'No such file.' },
    responses: { 200: { description: 'studio.js or studio.css.', schema: z.string(), contentType: 'text/javascript' } },
    handle: async ({ params }) => {
      const asset = await studioAsset(params.name);
      if (!asset) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-file'), id: params.name });
      return { type: asset.type, headers: { 'cache-control': 'no-cache' }, body: asset.body };
    },
  }),
];

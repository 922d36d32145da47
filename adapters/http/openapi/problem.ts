import { z } from 'zod';

/**
 * The Problem every refusal answers (RFC 9457, CONTRACT §5); engine/rules/violation.ts renders it. A file of its own,
 * zod only, so that the studio's page script can take its type without the engine.
 */
export const ProblemPointer = z.strictObject({
  requestPointer: z
    .string()
    .describe('A JSON pointer into the request body in OSDM form (`#/offers/0/offerId`), or `header:Requestor`, `path`, `query:contextId`.'),
  detail: z.string().optional().describe('What is wrong at that place.'),
});

export const Problem = z
  .strictObject({
    code: z
      .string()
      .describe(
        "The operator's five-digit code (`86005`), or a named code (`RESOURCE_NOT_FOUND`, `X_…` = this operator's own). rules/errors.yaml is the catalogue.",
      ),
    type: z.url().describe('An absolute URI, `<this server>/errors/<code>`: the page that documents the error (GET /errors/{code}).'),
    title: z.string().describe('Short, in the language of Accept-Language (sv-SE or en-GB).'),
    status: z.number().int().describe('The HTTP status, repeated.'),
    detail: z.string().describe('What happened, in the language of Accept-Language. A 500 names a reference to quote to the operator.'),
    instance: z.url().optional().describe('The absolute URI of the request (its path on this server); the `x-request-id` header names the occurrence.'),
    pointers: z.array(ProblemPointer).optional().describe('Where in the request each problem lies.'),
  })
  .meta({
    examples: [
      {
        code: '86001',
        type: 'http://127.0.0.1:8080/errors/86001',
        title: 'Validation error',
        status: 400,
        detail: 'The request is not valid: offerSearchCritera: unknown field "offerSearchCritera"',
        instance: 'http://127.0.0.1:8080/v3/offers',
        pointers: [{ requestPointer: '#/offerSearchCritera', detail: 'unknown field "offerSearchCritera"' }],
      },
    ],
  });

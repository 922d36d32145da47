import { z } from 'zod';

/**
 * The Problem every refusal answers (RFC 9457, CONTRACT §5; engine/rules/violation.ts renders it), and the page its
 * `type` points at (adapters/http/error-page.ts). A file of its own, zod only, so that the studio's page script can
 * take their types without the engine.
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

/** GET /errors/{code} as JSON: a catalogue entry of rules/errors.yaml and the decision rows that raise it. */
export const ErrorPage = z
  .strictObject({
    code: z.string(),
    status: z.number().int().describe('The HTTP status a Problem with this code has.'),
    texts: z
      .record(z.string(), z.strictObject({ title: z.string(), detail: z.string().describe('With `{parameters}` the occurrence fills in.') }))
      .describe('Title and detail in every language the operator serves (sv-SE, en-GB).'),
    catalogue: z.string().describe('The rule file holding the entry (errors.yaml of the rules in force).'),
    raisedBy: z
      .array(z.strictObject({ decision: z.string(), at: z.string().describe('`file:line:col` of the decision row.') }))
      .describe('The decision rows that reject with this code; empty when the engine raises it where it checks a request or a state.'),
  })
  .meta({
    examples: [
      {
        code: '86005',
        status: 400,
        catalogue: 'errors.yaml',
        texts: {
          'en-GB': {
            title: 'Gender place property required',
            detail: 'A shared night-train compartment needs exactly one place property MEN, LADIES or MIXED per passenger.',
          },
          'sv-SE': { title: 'Könsplacering krävs', detail: 'En delad kupé på nattåg kräver exakt en platsegenskap MEN, LADIES eller MIXED per resenär.' },
        },
        raisedBy: [{ decision: 'nightGender', at: 'rules/night-gender.yaml:16:5' }],
      },
    ],
  });
export type ErrorPage = z.infer<typeof ErrorPage>;

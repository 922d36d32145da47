import { OfferCollectionRequest } from '../../../engine/model/osdm/index.ts';
import * as S from '../openapi/schemas.ts';
import { decided, json, operation, type Operation } from './operation.ts';

/** Journey and travel pass offers (spec §2.2–§2.5). */
export const offers: Operation[] = [
  operation({
    method: 'POST',
    path: '/v3/offers',
    osdm: ['createOffers'],
    summary: 'Offers for trips or travel passes',
    section: 'spec §2.2, §2.3, §4.1',
    tag: 'Offers',
    access: 'reseller',
    request: { schema: OfferCollectionRequest, required: true },
    responses: { 200: json('OfferCollectionResponse', S.OfferCollectionResponse) },
    problems: { 501: 'an offer kind not built yet' },
    handle: async ({ service, requestor, body }) => decided(await service.offers(await requestor(), body)),
  }),
];

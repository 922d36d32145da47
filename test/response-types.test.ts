import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import * as S from '../adapters/http/openapi/schemas.ts';
import { renderExchangeOperation, renderOnHoldOffer, renderRefundOffer, renderReleaseOffer } from '../engine/booking/render-aftersales.ts';
import type * as Aftersales from '../engine/model/osdm/aftersales-response.ts';
import type { PaymentMethod } from '../engine/model/osdm/booking-patch-requests.ts';
import { renderBooking, renderFulfillment } from '../engine/booking/render.ts';
import type * as BookingBodies from '../engine/model/osdm/booking-response.ts';
import { lookupContract, lookupCustomer } from '../engine/customers/lookup.ts';
import type * as CustomerBodies from '../engine/model/osdm/customer-response.ts';
import type { Booking, BookingPartStatus, Fulfillment, Money, StoredOffer } from '../engine/model/records.ts';
import { renderOffer, renderOfferCollection } from '../engine/offers/render.ts';
import type { CardReference, CorporateCode, PromotionCode } from '../engine/model/osdm/offer-request.ts';
import type * as OfferBodies from '../engine/model/osdm/offer-response.ts';
import type * as Shapes from '../engine/model/osdm/shapes.ts';
import type { DecisionTrace } from '../engine/rules/decision.ts';
import { renderCoachLayout, renderCounts, renderPlaceMap, renderPreferences } from '../engine/seats/place-map.ts';
import { renderPlaceAllocation } from '../engine/seats/render.ts';
import type * as SeatBodies from '../engine/model/osdm/seat-response.ts';
import type { Problem } from '../engine/rules/violation.ts';

/**
 * The type link between the renderers and the response schemas (compiled by `tsc --noEmit`, part of `npm test`):
 * what a renderer returns must be assignable to the `z.infer` of the schema the API publishes for it, so a
 * renderer cannot drift from /openapi.json without the build saying so. The scenario runner checks the same
 * schemas at run time against every response.
 */
type Out<T extends z.ZodType> = z.infer<T>;

describe('renderers return what their response schemas describe', () => {
  it('Customer API records', () => {
    expectTypeOf(lookupCustomer).returns.toEqualTypeOf<Out<typeof CustomerBodies.CustomerRecord> | undefined>();
    expectTypeOf(lookupContract).returns.toEqualTypeOf<Out<typeof CustomerBodies.ContractRecord> | undefined>();
  });

  it('the place a booked reservation holds', () => {
    expectTypeOf(renderPlaceAllocation).returns.toExtend<Out<typeof SeatBodies.PlaceAllocation>>();
  });

  it('the stored values renderers copy into responses as they are', () => {
    expectTypeOf<Money>().toExtend<Out<typeof Shapes.Price>>();
    // CONFIRMED is never stored: only a sandbox's fault fulfillment-pending shows it (adapters/service/faults.ts).
    expectTypeOf<BookingPartStatus | 'CONFIRMED'>().toEqualTypeOf<Out<typeof Shapes.BookingPartStatus>>();
    expectTypeOf<Fulfillment['status'] | 'CONFIRMED'>().toEqualTypeOf<Out<typeof Shapes.FulfillmentStatus>>();
    expectTypeOf<Booking['passengers'][number]['cards'][number]>().toExtend<Out<typeof BookingBodies.Passenger>['cards'][number]>();
    expectTypeOf<CardReference>().toExtend<Out<typeof BookingBodies.Passenger>['cards'][number]>();
    expectTypeOf<StoredOffer['corporateCodes'][number]>().toExtend<z.infer<typeof CorporateCode>>();
    expectTypeOf<StoredOffer['promotionCodes'][number]>().toExtend<z.infer<typeof PromotionCode>>();
    expectTypeOf<Booking['paymentMethods'][number]>().toExtend<z.infer<typeof PaymentMethod>>();
    expectTypeOf<Problem>().toExtend<Out<typeof S.Problem>>();
    expectTypeOf<DecisionTrace>().toExtend<Out<typeof S.DecisionTrace>>();
  });

  // Each renderer is declared with its schema's type, so a field the schema does not know, or one it requires and
  // the renderer may leave out, is a compile error (`npm test` runs tsc first).
  it("every renderer returns its response schema's type", () => {
    expectTypeOf(renderOffer).returns.toExtend<Out<typeof OfferBodies.Offer>>();
    expectTypeOf(renderOfferCollection).returns.toExtend<Out<typeof OfferBodies.OfferCollectionResponse>>();
    expectTypeOf(renderBooking).returns.toExtend<Out<typeof BookingBodies.Booking>>();
    expectTypeOf(renderFulfillment).returns.toExtend<Out<typeof BookingBodies.Fulfillment>>();
    expectTypeOf(renderRefundOffer).returns.toExtend<Out<typeof Aftersales.RefundOffer>>();
    expectTypeOf(renderReleaseOffer).returns.toExtend<Out<typeof Aftersales.ReleaseOffer>>();
    expectTypeOf(renderOnHoldOffer).returns.toExtend<Out<typeof Aftersales.OnHoldOffer>>();
    expectTypeOf(renderExchangeOperation).returns.toExtend<Out<typeof Aftersales.ExchangeOperation>>();
    expectTypeOf(renderPlaceMap).returns.toExtend<Out<typeof SeatBodies.PlaceAvailabilityResponse>>();
    expectTypeOf(renderCounts).returns.toExtend<Out<typeof SeatBodies.AvailabilityCountResponse>>();
    expectTypeOf(renderPreferences).returns.toExtend<Out<typeof SeatBodies.PlacePreferencesResponse>>();
    expectTypeOf(renderCoachLayout).returns.toExtend<Out<typeof SeatBodies.CoachLayoutResponse> | undefined>();
  });
});

import type { Booking, Fulfillment } from '../model/records.ts';

/** OSDM Fulfillment as a booking and the aftersales offers covering it list it (engine/model/osdm/shapes.ts FulfillmentSummary). */
export function fulfillmentSummary(booking: Booking, f: Fulfillment) {
  return {
    id: f.id,
    status: f.status,
    bookingRef: booking.id,
    createdOn: f.createdOn,
    ...(f.controlNumber ? { controlNumber: f.controlNumber } : {}),
    bookingParts: f.bookingPartIds.map((id) => ({ id })),
  };
}

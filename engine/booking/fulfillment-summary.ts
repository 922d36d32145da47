import type { Booking, Fulfillment } from '../model.ts';

/** OSDM Fulfillment as a booking and the aftersales offers covering it list it (engine/osdm/shapes.ts FulfillmentSummary). */
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

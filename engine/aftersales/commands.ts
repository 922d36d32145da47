import type { Context } from '../model/context.ts';
import type { Booking } from '../model/records.ts';
import { phrase, violation } from '../rules/violation.ts';
import { cleanupBooking } from './cleanup.ts';
import { confirmOnHoldOffer, createOnHoldOffer, deleteOnHoldOffer } from './on-hold.ts';
import { confirmRefundOffer, createRefundOffer, deleteRefundOffer } from './refund.ts';
import { confirmReleaseOffer, createReleaseOffer, deleteReleaseOffer } from './release.ts';
import { deleteExchangeOperation, expireOperations, findOperation, patchExchangeOperation } from './exchange.ts';
import { renderExchangeOperation, renderOnHoldOffer, renderRefundOffer, renderReleaseOffer } from '../booking/render-aftersales.ts';

/**
 * The aftersales operations of CONTRACT §6 as commands, so the HTTP adapter, the scenario runner and an
 * embedder drive them the same way. Each answers the changed booking, the body to send and what happened (its
 * outcome): the engine knows no HTTP; adapters/http/outcomes.ts gives each outcome its status.
 */
export type AftersalesCommand =
  | { kind: 'refund-offer'; action: 'create'; body: unknown }
  | { kind: 'refund-offer'; action: 'read' | 'delete'; id: string }
  | { kind: 'refund-offer'; action: 'confirm'; id: string; body: unknown }
  | { kind: 'release-offer'; action: 'create'; body: unknown }
  | { kind: 'release-offer'; action: 'read' | 'delete'; id: string }
  | { kind: 'release-offer'; action: 'confirm'; id: string; body: unknown }
  | { kind: 'on-hold-offer'; action: 'create'; body: unknown }
  | { kind: 'on-hold-offer'; action: 'confirm' | 'delete'; id: string }
  | { kind: 'cleanup'; body: unknown; osdmVersion: number }
  | { kind: 'exchange-operation'; action: 'read' | 'delete'; id: string }
  | { kind: 'exchange-operation'; action: 'patch'; id: string; body: unknown };

/**
 * What an aftersales command did: made an offer, read one, confirmed one (or changed an exchange operation),
 * deleted one, or cleaned the booking up (spec §4.1 rule 12: accepted, nothing to show).
 */
export type AftersalesOutcome = 'created' | 'read' | 'confirmed' | 'changed' | 'deleted' | 'cleaned-up';

type Result = { booking: Booking; response?: Record<string, unknown>; outcome: AftersalesOutcome };

export function runAftersales(ctx: Context, current: Booking, c: AftersalesCommand): Result {
  const language = ctx.requestor.language;
  // An exchange left pre-booked past its time limit gives its parts back before anything is decided.
  const booking = expireOperations(ctx, current);
  switch (c.kind) {
    case 'exchange-operation': {
      const one = (b: Booking) => ({ exchangeOperation: renderExchangeOperation(ctx.rules, b, findOperation(b, c.id), language) });
      switch (c.action) {
        case 'read':
          return { booking, outcome: 'read', response: one(booking) };
        case 'patch': {
          const next = patchExchangeOperation(ctx, booking, c.id, c.body);
          return { booking: next, outcome: 'changed', response: one(next) };
        }
        case 'delete':
          return { booking: deleteExchangeOperation(ctx, booking, c.id), outcome: 'deleted' };
      }
      break;
    }
    case 'refund-offer': {
      const one = (b: Booking, id: string) => ({
        refundOffer: renderRefundOffer(
          b,
          b.refundOffers!.find((o) => o.id === id)!,
        ),
      });
      switch (c.action) {
        case 'create': {
          const next = createRefundOffer(ctx, booking, c.body);
          return { booking: next, outcome: 'created', response: { refundOffers: [renderRefundOffer(next, next.refundOffers!.at(-1)!)] } };
        }
        case 'read':
          if (!booking.refundOffers?.some((o) => o.id === c.id)) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-refund-offer'), id: c.id });
          return { booking, outcome: 'read', response: one(booking, c.id) };
        case 'confirm': {
          const next = confirmRefundOffer(ctx, booking, c.id, c.body);
          return { booking: next, outcome: 'confirmed', response: one(next, c.id) };
        }
        case 'delete':
          return { booking: deleteRefundOffer(ctx, booking, c.id), outcome: 'deleted' };
      }
      break;
    }
    case 'release-offer': {
      const one = (b: Booking, id: string) => ({
        releaseOffer: renderReleaseOffer(
          b,
          b.releaseOffers!.find((o) => o.id === id)!,
        ),
      });
      switch (c.action) {
        case 'create': {
          const next = createReleaseOffer(ctx, booking, c.body);
          return { booking: next, outcome: 'created', response: { releaseOffers: [renderReleaseOffer(next, next.releaseOffers!.at(-1)!)] } };
        }
        case 'read':
          if (!booking.releaseOffers?.some((o) => o.id === c.id))
            throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-release-offer'), id: c.id });
          return { booking, outcome: 'read', response: one(booking, c.id) };
        case 'confirm': {
          const next = confirmReleaseOffer(ctx, booking, c.id, c.body);
          return { booking: next, outcome: 'confirmed', response: one(next, c.id) };
        }
        case 'delete':
          return { booking: deleteReleaseOffer(ctx, booking, c.id), outcome: 'deleted' };
      }
      break;
    }
    case 'on-hold-offer':
      switch (c.action) {
        case 'create': {
          const { booking: next } = createOnHoldOffer(ctx, booking, c.body);
          return { booking: next, outcome: 'created', response: { onHoldOffer: renderOnHoldOffer(ctx.rules, next, next.onHoldOffer!, language) } };
        }
        case 'confirm': {
          const next = confirmOnHoldOffer(ctx, booking, c.id);
          return { booking: next, outcome: 'confirmed', response: { onHoldOffer: renderOnHoldOffer(ctx.rules, next, next.onHoldOffer!, language) } };
        }
        case 'delete':
          return { booking: deleteOnHoldOffer(ctx, booking, c.id), outcome: 'deleted' };
      }
      break;
    case 'cleanup':
      return { booking: cleanupBooking(ctx, booking, c.body, c.osdmVersion), outcome: 'cleaned-up' };
  }
  throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-operation'), id: JSON.stringify(c) });
}

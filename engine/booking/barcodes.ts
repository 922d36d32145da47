import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The ticket a barcode carries (CONTRACT §4b): a compact JSON payload and an HMAC-SHA256 signature,
 * `base64url(payload).base64url(signature)`, Base64-encoded as the Aztec code's binary content.
 * Deterministic for a given key, so the engine stays pure.
 */
export interface TicketPayload {
  v: 1;
  controlNumber: string;
  bookingId: string;
  passenger: string;
  from: string;
  to: string;
  departure: string;
  product: string;
  travelClass: string;
}

export function encodeTicket(payload: TicketPayload, key: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', key).update(body).digest('base64url');
  return Buffer.from(`${body}.${signature}`).toString('base64');
}

/** Reads and verifies a barcode's content; undefined when the signature does not match. */
export function verifyTicket(barcode: string, key: string): TicketPayload | undefined {
  const [body, signature] = Buffer.from(barcode, 'base64').toString().split('.');
  if (!body || !signature) return undefined;
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return JSON.parse(Buffer.from(body, 'base64url').toString()) as TicketPayload;
}

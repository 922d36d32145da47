import type { ReplayPrice } from '../http/openapi/replay-report.ts';
import type { ReplayedAnswer } from './replay-side.ts';

/**
 * What a replay compares of two answers to one request: the status, the Problem code, and the prices. A price is
 * every Money of the answer (an object with a currency and a numeric amount: an offer's and its parts' prices, a
 * booking's, a refund offer's refundable amount and fee, an exchange's price difference), by where it stands in the
 * answer; the VAT inside a Money is derived from its amount and not compared on its own.
 */
export interface ComparedAnswer {
  status: number;
  code: string | null;
  prices: Map<string, ReplayPrice>;
}

export function comparedAnswer(answer: ReplayedAnswer): ComparedAnswer {
  const body = answer.body as { code?: unknown } | undefined;
  const code = answer.status >= 400 && body && typeof body === 'object' && typeof body.code === 'string' ? body.code : null;
  return { status: answer.status, code, prices: answer.status < 400 ? pricesIn(answer.body) : new Map<string, ReplayPrice>() };
}

function pricesIn(value: unknown, at = '', out = new Map<string, ReplayPrice>()): Map<string, ReplayPrice> {
  if (Array.isArray(value)) value.forEach((item, i) => pricesIn(item, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v['currency'] === 'string' && typeof v['amount'] === 'number')
      out.set(at || 'body', { amount: v['amount'], scale: typeof v['scale'] === 'number' ? v['scale'] : 0, currency: v['currency'] });
    else for (const [k, child] of Object.entries(v)) pricesIn(child, at ? `${at}.${k}` : k, out);
  }
  return out;
}

/** The prices that differ between two answers, in the order they stand in A's answer, then those only B has. */
export function priceDifferences(a: ComparedAnswer, b: ComparedAnswer): Array<{ at: string; a: ReplayPrice | null; b: ReplayPrice | null }> {
  const same = (x: ReplayPrice | undefined, y: ReplayPrice | undefined) => {
    if (x === undefined || y === undefined || x.currency !== y.currency) return false;
    const scale = Math.max(x.scale, y.scale);
    return x.amount * 10 ** (scale - x.scale) === y.amount * 10 ** (scale - y.scale);
  };
  const out: Array<{ at: string; a: ReplayPrice | null; b: ReplayPrice | null }> = [];
  for (const [at, price] of a.prices) if (!same(price, b.prices.get(at))) out.push({ at, a: price, b: b.prices.get(at) ?? null });
  for (const [at, price] of b.prices) if (!a.prices.has(at)) out.push({ at, a: null, b: price });
  return out;
}

import { passesOfBooking, passUsesOf, soldPassEntries, soldPassKeysOf, trainHoldingsOf, trainKeysOfBooking, type Booking } from '../../engine/index.ts';

/**
 * A booking's rows in the indexes the SQLite and PostgreSQL stores keep beside it (adapters/store/store.ts): what it
 * holds per train, what each of its travel passes pays for, the passes it sold, each as key and JSON, and the keys
 * it no longer has an entry under (places given back, a pass no longer used, a sold pass refunded).
 */
interface BookingIndexRows {
  holdings: Array<[train: string, json: string]>;
  freedTrains: string[];
  passUses: Array<[pass: string, json: string]>;
  freedPasses: string[];
  soldPasses: Array<[key: string, json: string]>;
  freedSoldPasses: string[];
}

export function indexRowsOf(b: Booking): BookingIndexRows {
  const held = trainHoldingsOf(b);
  const trains = new Set(held.map((h) => h.train));
  const uses = passUsesOf(b);
  const usedPasses = [...new Set(uses.map((u) => u.pass))];
  const sold = soldPassEntries(b);
  return {
    holdings: held.map((h) => [h.train, JSON.stringify(h)]),
    freedTrains: trainKeysOfBooking(b).filter((k) => !trains.has(k)),
    passUses: usedPasses.map((pass) => [pass, JSON.stringify(uses.filter((u) => u.pass === pass))]),
    freedPasses: passesOfBooking(b).filter((p) => !usedPasses.includes(p)),
    soldPasses: sold.map(([key, pass]) => [key, JSON.stringify(pass)]),
    freedSoldPasses: soldPassKeysOf(b).filter((k) => !sold.some(([key]) => key === k)),
  };
}

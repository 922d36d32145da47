/**
 * A copy of a JSON value as `JSON.parse(JSON.stringify(value))` gives it, made without the text: the memory store
 * copies what it is given and what it gives (the store contract) this way, in less time than stringifying the value
 * alone takes (docs/performance.md).
 *
 * As JSON does: `undefined`, functions and symbols leave objects and become `null` in arrays, numbers that are not
 * finite become `null`, -0 becomes 0, objects without a prototype become plain ones, and a BigInt throws. Anything else
 * that is not plain data (a Date, a Map, a class instance, an object with `toJSON`) is copied through JSON itself.
 */
export function jsonCopy<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    // -0 is written as 0.
    if (typeof value === 'number') return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    return value;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = dropped(value[i]) ? null : copy(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (dropped(item)) continue;
    // JSON.parse makes `__proto__` an own property; an assignment would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy(item), enumerable: true, writable: true, configurable: true });
    else out[key] = copy(item);
  }
  return out;
}

const dropped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

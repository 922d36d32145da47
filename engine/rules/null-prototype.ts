/**
 * Rule data with every object's prototype removed. Ids from requests and tokens (client ids, coach layouts,
 * product codes, station codes) are looked up in these records; on a plain object `constructor`, `toString` or
 * `__proto__` would find Object.prototype's members instead of nothing.
 */
export function withoutPrototypes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutPrototypes) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = withoutPrototypes(item);
  return copy as T;
}

/**
 * What a request header says, worked out once per distinct text: a reseller sends the same Requestor, Accept and
 * Accept-Language with every call, and reading them again costs more than looking them up. Bounded: past `limit`
 * distinct texts the memo starts again, so a caller varying a header cannot grow it. Only what a header says is
 * kept; a verdict that also depends on the caller or the rules is the caller's to make every time.
 */
export function headerMemo<T>(read: (text: string) => T, limit = 10_000): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined && !known.has(text)) {
      value = read(text);
      if (known.size >= limit) known.clear();
      known.set(text, value);
    }
    return value as T;
  };
}

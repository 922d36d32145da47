import { describe, expect, it } from 'vitest';
import { negotiateLanguage } from '../adapters/http/language.ts';
import { requestedOsdmVersion, versionedJsonType } from '../adapters/http/version.ts';

/** Headers are read once per distinct text; what they decide must not change for being remembered. */
describe('headers read once per text', () => {
  it('pick the language among the languages in force, not among those of the first call', () => {
    expect(negotiateLanguage('sv', ['en-GB', 'sv-SE'])).toBe('sv-SE');
    expect(negotiateLanguage('sv', ['en-GB'])).toBe('en-GB');
    expect(negotiateLanguage('sv', ['en-GB', 'sv-SE'])).toBe('sv-SE');
  });

  it('refuse a malformed version every time it is sent, and name the header it came in', () => {
    for (let i = 0; i < 2; i++) expect(() => requestedOsdmVersion({ accept: 'application/json; version=three' })).toThrow();
    let pointer: unknown;
    try {
      requestedOsdmVersion({ 'content-type': 'application/json; version=three' });
    } catch (e) {
      pointer = (e as { pointers?: unknown }).pointers;
    }
    expect(JSON.stringify(pointer)).toContain('header:Content-Type');
  });

  it('answer in the version in force, whatever the same Accept was answered with before', () => {
    const accept = 'application/vnd.uic.osdm+json; version=3.4';
    expect(versionedJsonType(accept, '3.4')).toBe('application/vnd.uic.osdm+json; version=3.4');
    expect(versionedJsonType(accept, '3.0.4')).toBe('application/vnd.uic.osdm+json; version=3.0.4');
  });
});

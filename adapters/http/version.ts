import { phrase, RuleViolation, type RuleSet } from '../../engine/index.ts';
import { headerMemo } from './header-memo.ts';

/**
 * OSDM version negotiation (CONTRACT §4). A client names the version it speaks with the `version=` parameter of
 * `Accept` or `Content-Type` (`application/json; version=3.4`, `application/vnd.uic.osdm+json; version=3.4`);
 * Accept wins when both carry one. Without one, the sales application's `osdmVersion`
 * (rules/sales-applications.yaml) applies, else `defaultOsdmVersion` of rules/limits.yaml.
 */
const OSDM_VERSION = /^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/;

/** 3.4 → 304, 3.0.4 → 300, 3.10 → 310: what the rules compare (`osdmVersion: { lessThan: 304 }`). */
export function osdmVersionNumber(version: string): number {
  const [major = '0', minor = '0'] = version.split('.');
  return Number(major) * 100 + Number(minor);
}

/** The media ranges of an Accept or Content-Type header, each with its lower-cased parameters. */
function mediaTypes(header: string): Array<{ type: string; params: Map<string, string> }> {
  return header.split(',').map((range) => {
    const [type = '', ...params] = range.split(';');
    return {
      type: type.trim().toLowerCase(),
      params: new Map(
        params.map((p) => {
          const eq = p.indexOf('=');
          const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
          const value =
            eq < 0
              ? ''
              : p
                  .slice(eq + 1)
                  .trim()
                  .replace(/^"(.*)"$/, '$1');
          return [name, value];
        }),
      ),
    };
  });
}

/** The first `version=` of an Accept or Content-Type text, if any (remembered per text). */
const versionParameter = headerMemo((header: string): string | null => {
  for (const { params } of mediaTypes(header)) {
    const version = params.get('version');
    if (version !== undefined) return version;
  }
  return null;
});

/** The version a request names, if any; a `version=` that is not `major.minor[.patch]` → 400 86001 at the header. */
export function requestedOsdmVersion(headers: { accept?: string | undefined; 'content-type'?: string | undefined }): string | undefined {
  for (const name of ['accept', 'content-type'] as const) {
    const header = headers[name];
    if (!header) continue;
    const version = versionParameter(header);
    if (version === null) continue;
    if (!OSDM_VERSION.test(version)) {
      const label = name === 'accept' ? 'Accept' : 'Content-Type';
      throw new RuleViolation('86001', { reason: phrase('version-parameter', { header: label, value: version.slice(0, 40) }) }, [
        { requestPointer: `header:${label}` },
      ]);
    }
    return version;
  }
  return undefined;
}

/** Without a version in the request: the sales application's configured one, else the default of rules/limits.yaml. */
export function configuredOsdmVersion(rules: RuleSet, salesApplication?: string): string {
  const configured = salesApplication ? rules.salesApplications.get(salesApplication)?.osdmVersion : undefined;
  return configured && OSDM_VERSION.test(configured) ? configured : rules.limits.defaultOsdmVersion;
}

/**
 * The media type a Reseller API JSON answer goes out as: the OSDM one when the client's Accept asks for it,
 * else application/json; either way with the version in force (`application/json; version=3.4`).
 */
export function versionedJsonType(accept: string | undefined, version: string): string {
  const osdm = accept !== undefined && asksForOsdm(accept);
  return `${osdm ? 'application/vnd.uic.osdm+json' : 'application/json'}; version=${version}`;
}

const asksForOsdm = headerMemo((accept: string) => mediaTypes(accept).some((m) => m.type === 'application/vnd.uic.osdm+json' && m.params.get('q') !== '0'));

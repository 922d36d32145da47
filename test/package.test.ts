import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Another project installs the packed tarball and embeds the engine with `import { createEngine } from 'signalbox'`
 * (README "Embedding the engine"). Runs the built JavaScript, not the TypeScript sources.
 */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the packed package', () => {
  it('can be installed and embedded by another program', () => {
    const root = resolve('.');
    const tarball = npm(['pack', '--silent', '--pack-destination', dir], root).trim().split('\n').pop()!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'embedder', version: '1.0.0', type: 'module', private: true }));
    npm(['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(dir, tarball)], dir);
    writeFileSync(join(dir, 'embed.mjs'), `
      import { createEngine } from 'signalbox';
      const engine = createEngine();
      let n = 0;
      const call = { requestor: { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'X', language: 'en-GB' }, now: new Date('2026-11-20T09:00:00Z'), ids: { next: (k) => k + '-' + ++n } };
      const { value } = engine.offers(call, {
        tripSpecifications: [{ legs: [{ externalRef: 'l1', timedLeg: {
          start: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000001' }, serviceDeparture: { timetabledTime: '2026-12-01T08:00:00+01:00' } },
          end: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000002' }, serviceArrival: { timetabledTime: '2026-12-01T11:00:00+01:00' } },
          service: { vehicleNumbers: ['421'], productCategory: { productCategoryRef: 'urn:x_swe:sbc:ST' }, carriers: [{ ref: 'urn:x_swe:carrier:74' }] } } }] }],
        anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 30 }],
      });
      console.log(JSON.stringify({ offers: value.offers.length, type: value.response.offers[0].admissionOfferParts[0].appliedPassengerTypes[0].type }));
    `);
    const out = execFileSync(process.execPath, ['embed.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ offers: 6, type: 'PERSON' });
  }, 180_000);
});

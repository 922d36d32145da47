import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Other projects install the packed tarballs: the server package `signalbox`, and the lean `@signalbox/engine`
 * (packages/engine, docs/embedding.md). Each is installed from its tarball and the npm cache alone into an empty
 * project, and runs the built JavaScript, not the TypeScript sources.
 */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-pack-'));
// Two installed projects: removing them takes a while on a busy machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);
const root = resolve('.');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** Packs the package in `packageDir` and installs the tarball, with nothing else, in a new project `name`. */
function packAndInstall(packageDir: string, name: string): string {
  const tarball = npm(['pack', '--silent', '--pack-destination', dir], packageDir).trim().split('\n').pop()!;
  const project = join(dir, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }));
  npm(['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(dir, tarball)], project);
  return project;
}

/** What the install weighs: the packages in node_modules and the bytes of their files. */
function installSize(project: string): { packages: number; megabytes: number } {
  const lock = readJson(join(project, 'package-lock.json')) as { packages: Record<string, unknown> };
  const packages = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/')).length;
  const modules = join(project, 'node_modules');
  const stats = readdirSync(modules, { recursive: true, encoding: 'utf8' }).map((f) => lstatSync(join(modules, f)));
  const bytes = stats.filter((s) => s.isFile()).reduce((sum, s) => sum + s.size, 0);
  return { packages, megabytes: Math.round(bytes / 1e5) / 10 };
}

/** The packages a built package's files import (JavaScript at run time, declarations for the types). */
function importedPackages(distDir: string): string[] {
  const builtins = new Set(builtinModules);
  const specifiers = readdirSync(distDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))
    .flatMap((f) => ts.preProcessFile(readFileSync(join(distDir, f), 'utf8'), true, true).importedFiles.map((i) => i.fileName));
  const names = specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtins.has(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
  return [...new Set(names)].sort();
}

describe('the packed package', () => {
  it('can be installed and embedded by another program', () => {
    const project = packAndInstall(root, 'embedder');
    writeFileSync(
      join(project, 'embed.mjs'),
      `
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
    `,
    );
    const out = execFileSync(process.execPath, ['embed.mjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ offers: 6, type: 'PERSON' });
    const { packages, megabytes } = installSize(project);
    console.log(`signalbox (server package) installs ${packages} packages, ${megabytes} MB`);
  }, 180_000);

  it("@signalbox/engine installs with only the engine's dependencies and runs the embedding example", () => {
    const project = packAndInstall(join(root, 'packages/engine'), 'engine-embedder');
    const installed = join(project, 'node_modules/@signalbox/engine');
    // Built from engine/ and machines/ alone: nothing of adapters/ came along through an import.
    expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['engine', 'machines']);
    const dependencies = Object.keys(readJson(join(installed, 'package.json')).dependencies ?? {}).sort();
    // Exactly what the engine's built files import: nothing it does not use, nothing missing.
    expect(dependencies).toEqual(importedPackages(join(installed, 'dist')));
    expect(dependencies).toEqual(['json-rules-engine', 'xstate', 'yaml', 'zod']);
    // None of the server's own: no HTTP server, database driver or Swagger UI.
    const serverOnly = Object.keys(readJson(join(root, 'package.json')).dependencies).filter((d) => !dependencies.includes(d));
    expect(serverOnly).toContain('fastify');
    expect(serverOnly.filter((d) => statSync(join(project, 'node_modules', d), { throwIfNoEntry: false }))).toEqual([]);

    // The example of docs/embedding.md, as another project writes it: the package's name for the sources' path.
    const source = readFileSync(join(root, 'examples/02-embed-the-engine.ts'), 'utf8');
    expect(source).toContain("from '../engine/index.ts'");
    const embedded = source.replace("from '../engine/index.ts'", "from '@signalbox/engine'");
    writeFileSync(join(project, 'embed.ts'), embedded);
    // It type-checks against the shipped declarations…
    const program = ts.createProgram([join(project, 'embed.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
      typeRoots: [join(root, 'node_modules/@types')],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    // …and answers as it does from the sources.
    writeFileSync(
      join(project, 'embed.mjs'),
      ts.transpileModule(embedded, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } })
        .outputText,
    );
    const packed = execFileSync(process.execPath, ['embed.mjs'], { cwd: project, encoding: 'utf8' });
    const fromSources = execFileSync(process.execPath, ['--import', 'tsx', 'examples/02-embed-the-engine.ts'], { cwd: root, encoding: 'utf8' });
    expect(packed).toMatch(/^booking \S+: FULFILLED, \d+ SEK, 2 tickets$/m);
    expect(packed).toBe(fromSources);

    const { packages, megabytes } = installSize(project);
    console.log(`@signalbox/engine installs ${packages} packages, ${megabytes} MB`);
  }, 180_000);
});

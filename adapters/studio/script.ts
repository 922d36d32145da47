import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The page's script: the typed modules of client/ bundled into one ES module. `npm run build` writes the bundle
 * into public/studio.js of the published package; a checkout (tsx) has none there, and esbuild bundles it in
 * memory when it is first asked for.
 */
const BUILT = fileURLToPath(new URL('./public/studio.js', import.meta.url));
const CLIENT = fileURLToPath(new URL('./client/main.ts', import.meta.url));

/** The options package.json's `build` script gives the esbuild command: the same bundle either way. */
const BUNDLE = { bundle: true, format: 'esm', target: 'es2022' } as const;

let script: Promise<string> | undefined;

export function studioScript(): Promise<string> {
  script ??= bundled().catch((e: unknown) => {
    script = undefined; // tried again at the next request
    throw e;
  });
  return script;
}

async function bundled(): Promise<string> {
  if (existsSync(BUILT)) return readFileSync(BUILT, 'utf8');
  // Only a checkout bundles: the published package ships the bundle and needs no esbuild at run time.
  const { build } = await import('esbuild');
  const result = await build({ ...BUNDLE, entryPoints: [CLIENT], write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

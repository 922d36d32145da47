#!/usr/bin/env node
// Runs the CLI from the TypeScript sources in a clone (through tsx), or from dist/ in an installed package.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const source = fileURLToPath(new URL('../adapters/cli/main.ts', import.meta.url));
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(new URL('../dist/adapters/cli/main.js', import.meta.url).href);
}

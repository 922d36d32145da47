#!/usr/bin/env node
// Runs the CLI from the TypeScript sources in a clone (Node 24 strips their types itself: no loader, no build), or
// from dist/ in an installed package.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// An older Node would fail later and obscurely (node:sqlite missing): say which Node is needed, and how to get it.
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = Number(/\d+/.exec(engines.node)[0]);
if (Number(process.versions.node.split('.')[0]) < needed) {
  process.stderr.write(
    `signalbox needs Node ${engines.node}; this is Node ${process.version}. ` +
      'In a checkout, `npm ci` installs it: run signalbox through `npx signalbox`, `npm start` or `npm test` (README).\n',
  );
  process.exit(1);
}

const source = fileURLToPath(new URL('../adapters/cli/main.ts', import.meta.url));
if (existsSync(source)) {
  await import(pathToFileURL(source).href);
} else {
  await import(new URL('../dist/adapters/cli/main.js', import.meta.url).href);
}

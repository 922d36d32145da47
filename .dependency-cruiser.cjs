/**
 * Import rules for engine/, machines/ and adapters/ (docs/architecture.md): no cycle, type-only imports
 * included, and every engine layer imports only from the layers below it. `npm run check:imports` runs it;
 * test/architecture.test.ts runs it in `npm test`, and shows on a small fixture that it fails.
 */

/** The engine's layers, bottom up: each may import only from those before it. */
const ENGINE_LAYERS = [
  ['rules', '^engine/rules/'],
  ['model', '^engine/model/'],
  ['state', '^engine/state/'],
  ['holdings', '^engine/holdings/'],
  ['seats', '^engine/seats/'],
  // Beside offers: offers read a travel pass's holder from customers, never the other way round.
  ['customers', '^engine/customers/'],
  ['offers', '^engine/offers/'],
  ['booking', '^engine/booking/'],
  ['aftersales', '^engine/aftersales/'],
  ['index', '^engine/index[.]ts$'],
];

const layerRules = ENGINE_LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `engine-${name}-imports-downward`,
  comment: `engine/${name} may import only ${
    ENGINE_LAYERS.slice(0, i)
      .map(([n]) => n)
      .join(', ') || 'no other layer'
  } (docs/architecture.md)`,
  severity: 'error',
  from: { path },
  to: { path: ENGINE_LAYERS.slice(i + 1).map(([, p]) => p) },
}));

/**
 * The adapters' wings (docs/architecture.md), each with the wings it may import. `cli` composes the others and
 * may import any of them; nothing imports `cli`.
 */
const WINGS = {
  shared: [],
  store: ['shared'],
  service: ['shared', 'store'],
  http: ['shared', 'store', 'service'],
  harness: ['shared', 'store', 'service', 'http'],
  analysis: ['shared', 'store', 'service', 'http', 'harness'],
  studio: ['shared', 'store', 'service', 'http', 'harness', 'analysis'],
};

const wingRules = Object.entries(WINGS).map(([wing, may]) => ({
  name: `wing-${wing}`,
  comment: `adapters/${wing} may import the engine${may.length ? `, and of the adapters only ${may.join(', ')}` : ''} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^adapters/${wing}/` },
  to: { path: '^adapters/', pathNot: [`^adapters/${wing}/`, ...may.map((w) => `^adapters/${w}/`)] },
}));

/** The engine's entry points: the engine, its OSDM shapes, its rule files' vocabulary. */
const FRONT_DOORS = ['^engine/index[.]ts$', '^engine/model/osdm/index[.]ts$', '^engine/rules/index[.]ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only imports included: cut it where the layer order says (docs/architecture.md).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'engine-in-layer-folders',
      comment: 'Every engine file but index.ts lives in a layer folder.',
      severity: 'error',
      from: { path: '^engine/[^/]+$', pathNot: '^engine/index[.]ts$' },
      to: {},
    },
    {
      name: 'machines-import-no-project-code',
      comment: 'machines/ holds pure state charts: they import xstate only.',
      severity: 'error',
      from: { path: '^machines/' },
      to: { path: '^(engine|adapters)/' },
    },
    {
      name: 'rules-know-no-machines',
      comment: 'The rule layer knows nothing of machines; the model names their states (types), engine/state drives them.',
      severity: 'error',
      from: { path: '^engine/rules/' },
      to: { path: '^machines/' },
    },
    {
      name: 'engine-through-its-front-door',
      comment: 'Outside engine/, the engine is imported through engine/index.ts, engine/model/osdm/index.ts or engine/rules/index.ts only.',
      severity: 'error',
      from: { pathNot: '^engine/' },
      to: { path: '^engine/', pathNot: FRONT_DOORS },
    },
    ...wingRules,
    {
      name: 'every-adapter-in-a-wing',
      comment: 'Every adapter file lives in a wing folder (docs/architecture.md).',
      severity: 'error',
      from: { path: '^adapters/[^/]+$' },
      to: {},
    },
    {
      name: 'nothing-imports-the-cli',
      comment: 'The CLI composes the other wings; none of them imports it.',
      severity: 'error',
      from: { path: '^(adapters|engine|machines|examples)/', pathNot: '^adapters/cli/' },
      to: { path: '^adapters/cli/' },
    },
    {
      name: 'studio-client-imports-only-shapes',
      comment:
        "The studio's page script runs in a browser: besides its own modules it imports only the types of the JSON it reads (studio-schemas.ts, studio-graph-schemas.ts, studio-csv-schemas.ts, studio-price-schemas.ts, studio-release-schemas.ts, problem.ts, the OSDM shapes).",
      severity: 'error',
      from: { path: '^adapters/studio/client/' },
      to: {
        path: '^(engine|machines|adapters)/',
        pathNot:
          '^adapters/studio/client/|^adapters/http/openapi/(studio-schemas|studio-graph-schemas|studio-csv-schemas|studio-price-schemas|studio-release-schemas|problem)[.]ts$|^engine/model/osdm/index[.]ts$',
      },
    },
    {
      name: 'engine-never-imports-adapters',
      comment: 'The functional core never reaches into the imperative shell.',
      severity: 'error',
      from: { path: '^(engine|machines)/' },
      to: { path: '^adapters/' },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is still a cycle for the reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(engine|machines|adapters|examples)/',
  },
};

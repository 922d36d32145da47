import { checkRejects } from './check-outcomes.ts';
import type { CompiledDecision } from './decision.ts';
import { factCatalogue, type DecisionName } from './facts.ts';
import type {
  AncillaryItems,
  Cards,
  Clients,
  Customers,
  DecisionFile,
  ErrorCatalogue,
  PassProducts,
  Products,
  SalesApplication,
  Station,
  Tariff,
} from './schemas.ts';
import type { CoachLayouts, Fleet } from './seat-schemas.ts';
import type { SourceFile } from './source.ts';

/** A value file that parsed: its data, and its source for positions. */
export interface ParsedFile {
  readonly data: unknown;
  readonly source: SourceFile;
}

/**
 * The references between rule files: every name one file uses that another defines. Each check runs when the
 * files it reads parsed, so a broken file hides only the checks that need it, not the rest of the rule set's.
 */
export function crossFileProblems(
  files: Readonly<Record<string, ParsedFile>>,
  decisions: Readonly<Partial<Record<DecisionName, CompiledDecision>>>,
  tables: ReadonlyArray<{ table: DecisionFile; source: SourceFile }>,
): string[] {
  const problems: string[] = [];
  const file = <T>(base: string) => files[base] as { data: T; source: SourceFile } | undefined;
  const products = file<Products>('products.yaml');
  const tariff = file<Tariff>('tariff.yaml');
  const customers = file<Customers>('customers.yaml');
  const cards = file<Cards>('cards.yaml');
  const clients = file<Clients>('clients.yaml');
  const salesApps = file<{ salesApplications: Record<string, Omit<SalesApplication, 'code'>> }>('sales-applications.yaml');
  const stations = file<{ stations: Station[] }>('stations.yaml');
  const items = file<{ items: AncillaryItems }>('ancillary-items.yaml');
  const passProducts = file<PassProducts>('pass-products.yaml');
  const fleet = file<Fleet>('fleet.yaml');
  const layouts = file<CoachLayouts>('coach-layouts.yaml');
  const errors = file<{ errors: ErrorCatalogue }>('errors.yaml');

  if (products) {
    const { productCategories, products: known } = products.data;
    const categories = Object.keys(productCategories);
    const isCategory = (code: string) => code in productCategories;
    const list = `(${categories.join(', ')})`;
    for (const [code, cat] of Object.entries(productCategories))
      cat.products.forEach((p, i) => {
        if (!known[p]) problems.push(`${products.source.at(['productCategories', code, 'products', i])}: category ${code} names unknown product ${p}`);
      });
    // Product categories are products.yaml's: every other file naming one is checked against it.
    if (tariff) {
      for (const code of categories)
        if (!tariff.data.categories[code]) problems.push(`${tariff.source.at(['categories'])}: product category ${code} of products.yaml has no fare`);
      for (const code of Object.keys(tariff.data.categories).filter((c) => !isCategory(c)))
        problems.push(`${tariff.source.at(['categories', code])}: ${code} is not a product category of products.yaml ${list}`);
    }
    if (customers)
      for (const [type, pass] of Object.entries(customers.data.passTypes))
        (pass.productCategories ?? []).forEach((code, i) => {
          if (!isCategory(code))
            problems.push(
              `${customers.source.at(['passTypes', type, 'productCategories', i])}: pass type ${type} names ${code}, which is not a product category of products.yaml ${list}`,
            );
        });
    for (const d of Object.values(decisions))
      for (const c of d.rows.flatMap((r) => r.conditions))
        if (c.fact === 'productCategory')
          for (const code of [c.value].flat())
            if (typeof code !== 'string' || !isCategory(code))
              problems.push(`${c.at}: ${JSON.stringify(code)} is not a product category of products.yaml ${list}`);
    if (fleet) {
      for (const cat of Object.keys(fleet.data.categories))
        if (!isCategory(cat)) problems.push(`${fleet.source.at(['categories', cat])}: ${cat} is not a product category of products.yaml`);
      for (const [cat, c] of Object.entries(fleet.data.categories))
        c.coaches.forEach((coach, i) => {
          for (const p of coach.products)
            if (!known[p])
              problems.push(`${fleet.source.at(['categories', cat, 'coaches', i, 'products'])}: coach ${coach.number} of ${cat} names unknown product ${p}`);
        });
      for (const [cat, c] of Object.entries(productCategories))
        if (c.reservation === 'mandatory')
          for (const p of c.products)
            if (!fleet.data.categories[cat]?.coaches.some((coach) => coach.products.includes(p)))
              problems.push(`${fleet.source.at(['categories', cat])}: no coach of ${cat} sells ${p}, which needs a reservation`);
    }
  }
  if (customers && cards) {
    const phone = new RegExp(cards.data.phoneNumberPattern);
    customers.data.customers.forEach((c, i) => {
      if (!phone.test(c.phoneNumber))
        problems.push(
          `${customers.source.at(['customers', i, 'phoneNumber'])}: the phone number ${c.phoneNumber} of ${c.firstName} ${c.lastName} does not match cards.yaml phoneNumberPattern`,
        );
    });
  }
  if (clients && salesApps)
    for (const [id, client] of Object.entries(clients.data.clients))
      client.salesApplications.forEach((app, i) => {
        if (!salesApps.data.salesApplications[app])
          problems.push(`${clients.source.at(['clients', id, 'salesApplications', i])}: client ${id} names unknown sales application ${app}`);
      });
  if (customers && stations)
    customers.data.customers.forEach((c, i) =>
      c.travelPasses.forEach((p, j) => {
        for (const end of ['origin', 'destination'] as const) {
          const ref = p[end];
          if (ref && !stations.data.stations.some((s) => s.x_swe === ref || s.uic === ref))
            problems.push(
              `${customers.source.at(['customers', i, 'travelPasses', j, end])}: pass ${p.cardNumber} of ${c.firstName} ${c.lastName} names unknown station ${ref}`,
            );
        }
      }),
    );
  if (items)
    for (const row of decisions.ancillaryGroups?.rows ?? [])
      for (const item of [...((row.then['items'] as string[] | undefined) ?? []), row.then['default'] as string | undefined])
        if (item !== undefined && !items.data.items[item]) problems.push(`${row.at}: ancillary item ${item} is not in ancillary-items.yaml`);
  if (passProducts && customers)
    for (const code of Object.keys(passProducts.data.products))
      if (!customers.data.passTypes[code]) problems.push(`${passProducts.source.at(['products', code])}: ${code} is not a pass type of customers.yaml`);
  if (fleet && layouts)
    for (const [cat, c] of Object.entries(fleet.data.categories))
      c.coaches.forEach((coach, i) => {
        if (!layouts.data.layouts[coach.layout])
          problems.push(
            `${fleet.source.at(['categories', cat, 'coaches', i, 'layout'])}: coach ${coach.number} of ${cat} names unknown layout ${coach.layout}`,
          );
      });
  if (fleet && layouts)
    for (const [id, l] of Object.entries(layouts.data.layouts))
      l.places.forEach((p, i) => {
        for (const prop of p.placeProperties)
          if (!fleet.data.supportedPlaceProperties.includes(prop))
            problems.push(
              `${layouts.source.at(['layouts', id, 'places', i, 'placeProperties'])}: place ${p.number} of ${id} has ${prop}, not in fleet.yaml supportedPlaceProperties`,
            );
      });
  if (errors)
    for (const { table, source } of tables)
      problems.push(...checkRejects(table, source, Object.keys(factCatalogue[table.decision as DecisionName].shape), errors.data.errors));
  return problems;
}

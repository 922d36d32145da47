import { z } from 'zod';

/** rules/coach-layouts.yaml and rules/fleet.yaml (spec §2.10, §2.11): the seat inventory's reference data. */

const Code = z.string().regex(/^[A-Z0-9_]+$/, 'upper-case letters, digits and _');
const PlaceNumber = z.string().regex(/^\d+$/, 'digits');
/** Shared with the coach layout response (engine/model/osdm/seat-response.ts), which shows them as the file gives them. */
export const GridSize = z.strictObject({ x: z.number().int().positive(), y: z.number().int().positive() });
const PlaceCoords = z.strictObject({ x: z.number().int().nonnegative(), y: z.number().int().nonnegative() });
/** OSDM LayoutCoordinates: a centre and the graphical layer it is drawn on. */
export const LayoutCoordinates = PlaceCoords.extend({ zOrder: z.number().int().nonnegative() });
/** OSDM DirectionType: where a place's passenger faces on the drawing (a coach is drawn travelling right). */
export const PlaceDirection = z.enum(['RIGHT', 'LEFT', 'UP', 'DOWN']);
/** OSDM TravelDirectionType of a Coach as this operator uses it (spec §2.11 Coach.direction). */
export const CoachDirection = z.enum(['IN_DIRECTION', 'OPPOSITE_DIRECTION']);

const Size = z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() });

export const CoachLayoutsFile = z
  .strictObject({
    /** Spec §2.11, §8: icons have fixed sizes (a seat is always 40 px wide); a place shows its size by its icon. */
    icons: z.record(Code, Size),
    /** OSDM LayoutCoordinates.zOrder of what a layout draws. */
    layers: z.strictObject({ places: z.number().int().nonnegative(), labels: z.number().int().nonnegative() }),
    /** Spec §2.11: the number every place-map Compartment carries; a room is told by the places it lists. */
    placeMapCompartmentNumber: PlaceNumber,
    layouts: z.record(
      Code,
      z.strictObject({
        placeIcon: Code,
        gridSize: GridSize,
        places: z
          .array(
            z.strictObject({
              number: PlaceNumber,
              coords: PlaceCoords,
              direction: PlaceDirection,
              placeProperties: z.array(Code),
              /** A night coach's compartment; absent on day coaches. */
              compartment: PlaceNumber.optional(),
            }),
          )
          .min(1),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    for (const [id, layout] of Object.entries(file.layouts)) {
      if (!file.icons[layout.placeIcon]) ctx.addIssue({ code: 'custom', path: ['layouts', id, 'placeIcon'], message: `no icon ${layout.placeIcon} in icons` });
      const seen = new Set<string>();
      layout.places.forEach((p, i) => {
        if (seen.has(p.number))
          ctx.addIssue({ code: 'custom', path: ['layouts', id, 'places', i, 'number'], message: `place ${p.number} appears twice in ${id}` });
        seen.add(p.number);
        if (p.coords.x > layout.gridSize.x || p.coords.y > layout.gridSize.y)
          ctx.addIssue({ code: 'custom', path: ['layouts', id, 'places', i, 'coords'], message: 'outside the grid' });
      });
    }
  });
export type CoachLayouts = z.infer<typeof CoachLayoutsFile>;
export type CoachLayout = CoachLayouts['layouts'][string];
export type LayoutPlace = CoachLayout['places'][number];

export const FleetFile = z
  .strictObject({
    /** Keyed by product category (products.yaml productCategories; checked when the rule set is compiled). */
    categories: z.record(
      Code,
      z.strictObject({
        placeMap: z.boolean(),
        coaches: z.array(z.strictObject({ number: z.string().min(1), layout: Code, products: z.array(Code).min(1) })),
      }),
    ),
    requiredPlaceProperties: z.array(Code),
    genderPlaceProperties: z.array(Code),
    wheelchair: z.strictObject({ prmNeed: Code, placeProperties: z.array(Code).min(1) }),
    supportedPlaceProperties: z.array(Code),
  })
  .superRefine((file, ctx) => {
    for (const [cat, c] of Object.entries(file.categories)) {
      const seen = new Set<string>();
      c.coaches.forEach((coach, i) => {
        if (seen.has(coach.number))
          ctx.addIssue({ code: 'custom', path: ['categories', cat, 'coaches', i, 'number'], message: `coach ${coach.number} appears twice` });
        seen.add(coach.number);
      });
    }
  });
export type Fleet = z.infer<typeof FleetFile>;
type FleetCategory = Fleet['categories'][string];
export type FleetCoach = FleetCategory['coaches'][number];

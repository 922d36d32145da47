import type { AdmissionPart, AncillaryPart } from '../model/records.ts';

/** The parts an offer's minimal price adds up: the least a booking of it costs, its admissions and mandatory ancillaries. */
export const minimalParts = (admissions: readonly AdmissionPart[], ancillaries: readonly AncillaryPart[]): Array<AdmissionPart | AncillaryPart> => [
  ...admissions,
  ...ancillaries.filter((a) => a.groupMin > 0 && a.isDefault),
];

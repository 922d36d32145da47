/**
 * The engine's third entry point: the rule files' own vocabulary, for tools that read and write `rules/` (the
 * CLI's check and schemas, the studio's editors, the scenario harness's durations and instants).
 */
export { DecisionFile, IsoDuration, LocalizedText, valueFiles, type CustomerEntry, type Customers, type Limits } from './schemas.ts';
export { outcomeCatalogue } from './outcomes.ts';
export { DATE_TIME_WITH_OFFSET, durationMs, isRealInstant } from './time.ts';
export { parseSource, RuleFileError, type SourceFile } from './source.ts';
export { parseRequest } from './validate.ts';
export { kindOf } from './check.ts';
export { caseFindings, type CaseFinding } from './case-findings.ts';

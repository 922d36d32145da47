import type { DecisionTrace } from '../../engine/index.ts';
import type { Exercised } from './exercised.ts';
import type { Mismatch } from './match.ts';
import type { OsdmCheck } from './osdm-conformance.ts';

/** What running a scenario file gives: a verdict per step, and for a failing one why, with the rule traces behind it. */
export interface StepResult {
  name: string;
  /** `file:line` of the step, for the failure report. */
  at: string;
  passed: boolean;
  skipped?: boolean;
  request?: { method: string; path: string; body?: unknown };
  response?: { status: number; body: unknown };
  /** Each with `at`: the `file:line:col` of the expectation it broke. */
  mismatches: Array<Mismatch & { at?: string }>;
  /** Why the step could not be carried out (`file:line:col: message`, or a stack for a bug). */
  error?: string;
  /** The rule traces behind a failing step's response. */
  traces?: readonly DecisionTrace[];
  /** Why a failing step has no traces (a live target without a sandbox). */
  tracesUnavailable?: string;
  /**
   * With `osdm`: where the response breaks the OSDM 3.4 schema of its operation and status, and where it
   * differs as CONTRACT §4c allows. A conformance report of its own: the step's verdict does not depend on it.
   */
  osdm?: OsdmCheck;
  ms: number;
}
export interface ScenarioResult {
  file: string;
  name: string;
  tags: string[];
  passed: boolean;
  /** Problems of the file itself (`file:line:col: message`), when it could not run. */
  problems: string[];
  steps: StepResult[];
  /** With `coverage`: what the scenario's requests exercised. */
  exercised?: Exercised;
  /** Why the scenario was not run at all (it passes: nothing was found wrong), e.g. its own rule releases against a live server. */
  skipped?: string;
  ms: number;
}

export interface RunOptions {
  /** Client secrets by client id, for the token each scenario uses. */
  secrets: Readonly<Record<string, string>>;
  /** Record what every request exercised (live targets: one more request per step, for its traces). */
  coverage?: boolean;
  /** The OSDM 3.4 OpenAPI document to check every Reseller API response against (osdm-conformance.ts). */
  osdm?: string;
  /**
   * Values every scenario starts with, as if saved by an earlier step (`--var`, `--vars`): `${name}` anywhere a
   * step expands, and in `client` and `salesApplication`. `secret.<client>` is that client's secret.
   */
  vars?: Readonly<Record<string, string>>;
  /**
   * Run the steps after one that answered other than expected (not after one that could not be sent): what an impact
   * preview needs to show every step a rule change touches, where a regression run stops at the first.
   */
  keepGoing?: boolean;
  /** Scenario texts to run instead of what their files say, by file: expectations an edit would update, run before they are written. */
  texts?: ReadonlyMap<string, string>;
}

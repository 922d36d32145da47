/**
 * A step that could not be carried out for a reason the scenario's author can fix: a `${name}` never
 * saved, a fixture that does not exist, a clock step against a target without a sandbox clock. Reports
 * print its message (and where in the file, when known); any other error is a bug and prints its stack.
 */
export class StepError extends Error {
  /** The key path into the scenario file of the value at fault, relative to the step (e.g. ['body', 'tripSpecifications', 0]). */
  readonly keys: readonly PropertyKey[] | undefined;

  constructor(message: string, keys?: readonly PropertyKey[]) {
    super(message);
    this.name = 'StepError';
    this.keys = keys;
  }
}

import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import type { Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/** Texts that are not JSON, or not a JSON object. */
const BROKEN = ['{', '{"tripSpecifications": [', 'nul', '[1, 2', '{"a": 1}}', "{'single': 'quotes'}", '"a string"', '[]', 'null', '{"offers": [], }'];

/** A body that is not JSON (or not an object) → 400 86001 (CONTRACT §5), and nothing changes. */
export class MalformedJson extends ApiCommand {
  readonly path: '/v3/offers' | '/v3/booking' | '/v3/bookings';
  readonly text: string;
  constructor(path: '/v3/offers' | '/v3/booking' | '/v3/bookings', text: string) {
    super();
    this.path = path;
    this.text = text;
  }

  check() {
    return true;
  }

  protected async act(_m: Model, s: System) {
    await s.send({
      name: `malformed body to ${this.path}`,
      method: 'post',
      path: this.path,
      headers: { 'content-type': 'application/json' },
      body: this.text,
      expect: { status: 400, body: { code: '86001' } },
    });
  }

  toString() {
    return `MalformedJson(${this.path}, ${JSON.stringify(this.text)})`;
  }
}

export const spec: CommandSpec = {
  name: 'MalformedJson',
  arbitrary: fc
    .tuple(fc.constantFrom('/v3/offers' as const, '/v3/booking' as const, '/v3/bookings' as const), fc.constantFrom(...BROKEN))
    .map(([path, text]) => new MalformedJson(path, text)),
};

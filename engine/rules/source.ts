import { LineCounter, parseDocument, isNode, type Document } from 'yaml';

/** A parsed YAML file that still knows where each value came from, so every problem can say `file:line:col`. */
export interface SourceFile {
  readonly file: string;
  readonly data: unknown;
  /** Position of the value at `path` (or of its nearest existing ancestor), 1-based. */
  locate(path: readonly PropertyKey[]): { line: number; col: number };
  /** `file:line:col` of the value at `path`. */
  at(path: readonly PropertyKey[]): string;
}

export class RuleFileError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
    this.name = 'RuleFileError';
  }
}

export function parseSource(file: string, text: string): SourceFile {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    // The first syntax error is the real one; the ones after it are usually its echo.
    throw new RuleFileError(
      doc.errors.slice(0, 1).map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return `${file}:${pos.line}:${pos.col}: ${e.message.split('\n')[0]}`;
      }),
    );
  }
  const locate = (path: readonly PropertyKey[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) {
        const pos = lineCounter.linePos(node.range[0]);
        return { line: pos.line, col: pos.col };
      }
      // A key whose value is null still has a position: the pair's key.
      if (n > 0) {
        const parent = doc.getIn(path.slice(0, n - 1) as unknown[], true) as
          { items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> } | undefined;
        const pair = parent?.items?.find((p) => p.key?.value === path[n - 1]);
        if (pair?.key?.range) {
          const pos = lineCounter.linePos(pair.key.range[0]);
          return { line: pos.line, col: pos.col };
        }
      }
    }
    return { line: 1, col: 1 };
  };
  return {
    file,
    data: doc.toJS({ maxAliasCount: 100 }),
    locate,
    at(path) {
      const { line, col } = locate(path);
      return `${file}:${line}:${col}`;
    },
  };
}

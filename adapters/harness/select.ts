import { readHeader } from './load.ts';

/** `--grep TEXT`, `--tags a,b` and `--skip-tags c,d`: which scenario files to run. */
export interface Selection {
  /** Case-insensitive text in the scenario's name (in the file's path for a file with no readable name). */
  grep?: string;
  /** Any of these tags. */
  tags?: readonly string[];
  /** None of these tags (`--skip-tags needs-reset` on a shared server). */
  skipTags?: readonly string[];
}

/**
 * The files the selection picks, in the order given. Only `name` and `tags` are read here, leniently: a
 * file broken elsewhere is still selected by them and then reports its problems when it runs.
 */
export function selectScenarios(files: readonly string[], selection: Selection): string[] {
  const { grep, tags, skipTags } = selection;
  if (!grep && !(tags && tags.length > 0) && !(skipTags && skipTags.length > 0)) return [...files];
  const needle = grep?.toLowerCase();
  return files.filter((file) => {
    const { name, tags: own } = readHeader(file);
    if (needle && !(name ?? file).toLowerCase().includes(needle)) return false;
    if (tags && tags.length > 0 && !own.some((t) => tags.includes(t))) return false;
    if (skipTags && own.some((t) => skipTags.includes(t))) return false;
    return true;
  });
}

import { vi } from 'vitest';
import { test as signalboxTest } from '../../adapters/cli/test.ts';

/** `signalbox test` as a user types it, in-process: its exit code and what it wrote to stdout and stderr. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    stdout += String(s);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  try {
    const code = await signalboxTest(args);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * Runs a command's script as an operator does (`node <script> --name value …`): its exit code,
 * what it printed and what it said on stderr; never throws on a non-zero exit.
 */
export function runCommand(
  script: string,
  options: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  const argv = Object.entries(options).flatMap(([k, v]) => [`--${k}`, v])
  return run(process.execPath, [script, ...argv]).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      out: e.stdout,
      err: e.stderr,
    }),
  )
}

import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll } from 'vitest'
import { devKey } from '../chain/local-chain.ts'

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

/**
 * Dev account `devIndex`'s key in a 0600 file `<name>.key` of a fresh folder, as an operator keeps
 * a key, for a describe block's tests: written before them, the folder removed after them.
 */
export function useKeyFile(name: string, devIndex: number): { dir: string; keyFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hope-${name}-`))
  const keyFile = path.join(dir, `${name}.key`)
  beforeAll(() => fs.writeFileSync(keyFile, `${devKey(devIndex)}\n`, { mode: 0o600 }))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  return { dir, keyFile }
}

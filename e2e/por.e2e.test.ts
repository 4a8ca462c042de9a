import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, inject, test } from 'vitest'
import { api, creditUser, operator, operatorLogin } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
const repoRoot = path.resolve(import.meta.dirname, '..')
/** The job ticks every 15 s; the publish transaction then waits 12 one-second blocks. */
const PUBLISH_TIMEOUT_MS = 120_000

/** Asks until `read` answers something other than null, or the time is up. */
async function waitFor<T>(read: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read().catch(() => null)
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 1000))
  }
}

/** `node packages/por-verify/src/cli.ts <file> --rpc <url> …`: its exit status and output. */
function runCli(file: string, args: string[]): Promise<{ status: number | null; output: string }> {
  const cli = path.join(repoRoot, 'packages/por-verify/src/cli.ts')
  const child = spawn(process.execPath, [cli, file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })))
}

describe('proof of liabilities', () => {
  const browser = useBrowser()

  test(
    'a user verifies their balance in the app, every check passes, and the CLI verifies the downloaded file',
    async () => {
      const { page, address } = await registerThroughUi(browser(), undefined, { onChain: true })
      await creditUser(address, '25.5')
      const token = await sessionToken(page)

      // The user joined after the snapshot taken at start: the next one has them.
      await api('admin/porPublish', {}, await operator())
      const proof = await waitFor(
        () => api<{ snapshotId: string } | null>('por/myProof', {}, token),
        PUBLISH_TIMEOUT_MS,
      )

      await page.goto(`${baseUrl}/#/assets`)
      // The HOPE the assets screen counts is the HOPE the proof commits to.
      const hopeAll = (await page.getByTestId('assets-hope-all').textContent())!.match(
        /[\d,.]+/,
      )![0]
      await page.getByTestId('assets-verify-link').click()
      await page.getByTestId('verify-page').waitFor()
      const verdict = page.getByTestId('verify-verdict')
      await page.locator('[data-testid="verify-verdict"]:not([data-state="checking"])').waitFor({
        timeout: 60_000,
      })
      const failed = await page
        .locator('[data-testid^="verify-check-"][data-state="failed"] .verify-check__detail')
        .allTextContents()
      expect(failed).toEqual([])
      expect(await verdict.getAttribute('data-state')).toBe('ok')
      const checks = page.locator('[data-testid^="verify-check-"]')
      expect(await checks.count()).toBe(14)
      for (const state of await checks.evaluateAll((els) =>
        els.map((el) => (el as HTMLElement).dataset.state),
      ))
        expect(state).toBe('ok')
      expect(await page.getByTestId('verify-balance-usdt').textContent()).toBe('25.5USDT')
      expect(await page.getByTestId('verify-balance-hope').textContent()).toBe(`${hopeAll}HOPE`)
      expect(await page.getByTestId('verify-fact-totals').textContent()).toMatch(/USDT.*HOPE/)
      expect(await page.getByTestId('verify-snapshot').textContent()).toBe(`#${proof.snapshotId}`)
      // The chain is read through the user's wallet, not through HOPE's API.
      expect(await page.getByTestId('verify-via').textContent()).toBe('你的钱包')
      await screenshot(page, '70-verify')
      await page.getByTestId('verify-download').scrollIntoViewIfNeeded()
      await screenshot(page, '71-verify-download')

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('verify-download').click(),
      ])
      expect(download.suggestedFilename()).toBe(`hope-proof-${proof.snapshotId}.json`)
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-proof-'))
      const file = path.join(dir, download.suggestedFilename())
      await download.saveAs(file)
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
        snapshotId: proof.snapshotId,
        address,
      })

      // Pinned as the user is told: the official registry and token the app shows, and the
      // balance the app showed for that moment.
      const official = await api<{ porRegistryAddress: string; tokenAddress: string }>(
        'userAccount/getAddress',
        {},
        token,
      )
      const cli = await runCli(file, [
        '--rpc',
        inject('chainRpcUrl'),
        '--registry',
        official.porRegistryAddress,
        '--token',
        official.tokenAddress,
        '--usdt',
        '25.5',
        '--hope',
        '0',
        '--address',
        address,
      ])
      expect(cli.output).toContain('All 15 checks hold.')
      expect(cli.status).toBe(0)
      fs.rmSync(dir, { recursive: true, force: true })

      // An admin points the settings at another registry: the device pinned the first one, so
      // the check fails loudly, although the server now names the other as official.
      const admin = await operatorLogin(inject('adminOperator'))
      const setRegistry = (address: string, reason: string) =>
        api(
          'admin/updateSetting',
          { key: 'porRegistryAddress', value: JSON.stringify(address), reason },
          admin,
        )
      await setRegistry(official.tokenAddress, 'a registry swapped behind the users')
      try {
        await page.reload()
        await page.getByTestId('verify-page').waitFor()
        await page.locator('[data-testid="verify-verdict"][data-state="failed"]').waitFor({
          timeout: 60_000,
        })
        await expect
          .poll(() => page.getByTestId('verify-verdict').textContent())
          .toContain('运营方更换了登记合约')
        expect(await page.getByRole('button', { name: '我已手动核对：信任新的地址' }).count()).toBe(
          1,
        )
        await screenshot(page, '72-verify-registry-changed')
      } finally {
        await setRegistry(official.porRegistryAddress, 'back to the official registry')
      }
      await page.context().close()
    },
    PUBLISH_TIMEOUT_MS + 90_000,
  )
})

import type { Check, ProofFile } from '@hope/por-verify/verify'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import type { ProofCheck } from './verify-proof.ts'
import { VerifyPage } from './verify-page.tsx'

const ADDRESS = '0x5b38da6a701c568545dcfcb03fcb875f56beddc4'
const PROOF = {
  version: 1,
  snapshotId: '7',
  chainId: 31337,
  registry: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
  token: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  blockNumber: '120',
  root: `0x${'ab'.repeat(32)}`,
  totals: { usdt: '19500000', hope: '3000000000000000000' },
  address: ADDRESS,
  balance: { usdt: '12500000', hope: '3000000000000000000' },
  parts: [],
  reserves: [],
} as unknown as ProofFile

const IDS = [
  'leaves',
  'sums',
  'root',
  'totals',
  'balance',
  'chain',
  'anchor',
  'reserve-signatures',
  'reserves',
] as const
const checks = (failing?: string): Check[] =>
  IDS.map((id) => ({ id, ok: id !== failing, detail: `${id} detail` }))

const verified = vi.hoisted(() => ({ current: null as ProofCheck | null }))
vi.mock('./verify-proof.ts', () => ({
  checkProofFile: vi.fn(async () => verified.current),
  explorerAddressLink: vi.fn(async () => null),
  anchoredCut: vi.fn(async () => ({ snapshotId: 7, ledgerCut: '9' })),
}))

function checkedWith(failing?: string): ProofCheck {
  const list = checks(failing)
  return {
    kind: 'checked',
    proof: PROOF,
    result: { ok: list.every((c) => c.ok), checks: list },
    access: { via: 'rpc', url: 'http://127.0.0.1:8545' },
    blockTime: '2026-03-20T02:00:00.000Z',
    unreachable: false,
    statement: null,
    pinsChanged: [],
    pins: null,
  }
}

const REGISTRY = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'

function renderVerify(proof: unknown, statement: unknown = null) {
  useSession.setState({ address: ADDRESS, token: 't'.repeat(64) })
  // What the server said the app showed at the anchored cut, as the check asked it.
  if (verified.current?.kind === 'checked')
    verified.current.statement = statement as Extract<ProofCheck, { kind: 'checked' }>['statement']
  const api = fakeApi({
    'por/myProof': () => ok(proof),
    'por/myStatement': () => ok(statement),
    'userAccount/getAddress': () =>
      ok({ chainId: 31337, chain: null, porRegistryAddress: REGISTRY, tokenAddress: TOKEN }),
  })
  render(
    <MemoryRouter>
      <QueryScope>
        <VerifyPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

/** The value a fact list shows under its label. */
const fact = (label: string) => screen.getByText(label).nextElementSibling?.textContent

beforeAll(() => loadNamespace('por'))

describe('verify page', () => {
  afterEach(() => queryClient.clear())

  test('every check with a tick, the balance at block B, the snapshot and the registry', async () => {
    verified.current = checkedWith()
    renderVerify(PROOF)
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('ok'))
    for (const id of IDS) expect(screen.getByTestId(`verify-check-${id}`).dataset.state).toBe('ok')
    expect(screen.getByText('全部检查通过')).toBeTruthy()
    expect(screen.getByTestId('verify-balance-usdt').textContent).toBe('12.5USDT')
    expect(screen.getByTestId('verify-balance-hope').textContent).toBe('3HOPE')
    expect(fact('快照')).toBe('#7')
    expect(fact('区块')).toBe('120')
    expect(fact('读取链上数据经由')).toBe('127.0.0.1:8545')
    expect(screen.getByText('anchor detail')).toBeTruthy()
  })

  test("a passed check says what it found in the user's language and number format", async () => {
    const found = checkedWith('anchor') as Extract<ProofCheck, { kind: 'checked' }>
    found.result.checks = found.result.checks.map((c) =>
      c.id === 'totals'
        ? { ...c, facts: { usdt: '1234567.5', hope: '3000' } }
        : c.id === 'reserves'
          ? {
              ...c,
              facts: {
                held: '2000000',
                owed: '1234567.5',
                ratio: '162.00',
                addresses: '2',
                block: '120',
              },
            }
          : c.id === 'anchor'
            ? { ...c, detail: 'registry 0xe7f1…, snapshot 7: nothing published' }
            : c,
    )
    verified.current = found
    renderVerify(PROOF)
    expect(await screen.findByText('全体用户共 1,234,567.5 USDT、3,000 HOPE')).toBeTruthy()
    expect(screen.getByText('储备 2,000,000 USDT ≥ 负债 1,234,567.5 USDT（162%）')).toBeTruthy()
    // A failed check keeps its technical line, marked as English under a translated label.
    const failed = screen.getByTestId('verify-check-anchor')
    expect(failed.textContent).toContain('技术细节（英文）')
    expect(failed.querySelector('code')?.getAttribute('lang')).toBe('en')
  })

  test('no line shows a placeholder for a figure, while the checks run or after', async () => {
    const { checkProofFile } = await import('./verify-proof.ts')
    vi.mocked(checkProofFile).mockImplementationOnce(() => new Promise(() => {}))
    renderVerify(PROOF)
    await screen.findByTestId('verify-balance-usdt')
    expect(document.body.textContent).not.toContain('{{')
    cleanup()
    queryClient.clear()

    const found = checkedWith() as Extract<ProofCheck, { kind: 'checked' }>
    found.result.checks.push({
      id: 'rules',
      ok: true,
      detail: 'rules detail',
      facts: { minIntervalHours: '20.0', ledgerCut: '23', leaves: '72' },
    })
    verified.current = found
    renderVerify(PROOF)
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('ok'))
    expect(screen.getByTestId('verify-fact-rules').textContent).toBe(
      '间隔至少 20 小时，账本位置 23，72 个叶子',
    )
    expect(document.body.textContent).not.toContain('{{')
  })

  test('with nothing owed the reserves line tells no coverage ratio', async () => {
    const found = checkedWith() as Extract<ProofCheck, { kind: 'checked' }>
    found.result.checks = found.result.checks.map((c) =>
      c.id === 'reserves'
        ? { ...c, facts: { held: '0', owed: '0', ratio: '', addresses: '2', block: '0' } }
        : c,
    )
    verified.current = found
    renderVerify(PROOF)
    expect(await screen.findByText('储备 0 USDT ≥ 负债 0 USDT')).toBeTruthy()
  })

  test('the balance from the file paints before the chain checks end', async () => {
    // A check that has not answered yet.
    const { checkProofFile } = await import('./verify-proof.ts')
    vi.mocked(checkProofFile).mockImplementationOnce(() => new Promise(() => {}))
    renderVerify(PROOF)
    expect((await screen.findByTestId('verify-balance-usdt')).textContent).toBe('12.5USDT')
    expect(screen.getByTestId('verify-verdict').dataset.state).toBe('checking')
  })

  test('a failed check shows a cross and says so', async () => {
    verified.current = checkedWith('anchor')
    renderVerify(PROOF)
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('failed'))
    expect(screen.getByTestId('verify-check-anchor').dataset.state).toBe('failed')
    expect(screen.getByTestId('verify-check-root').dataset.state).toBe('ok')
  })

  test('downloads the proof file as hope-proof-<snapshot>.json', async () => {
    verified.current = checkedWith()
    renderVerify(PROOF)
    const created = vi.fn((_blob: Blob) => 'blob:proof')
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() })
    const clicked: HTMLAnchorElement[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this)
    })
    await userEvent.click(await screen.findByRole('button', { name: '下载证明文件' }))
    expect(clicked[0]?.download).toBe('hope-proof-7.json')
    expect(JSON.parse(await created.mock.calls[0]![0].text())).toEqual(PROOF)
  })

  test('the pinned command names the official registry and token and the balance shown', async () => {
    verified.current = checkedWith()
    renderVerify(PROOF, { snapshotId: 7, ledgerPosition: '9', usdt: '12.5', hopeAccounts: '3' })
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('ok'))
    expect(screen.getByTestId('verify-cli').textContent).toBe(
      `npx por-verify hope-proof-7.json --rpc <url> --registry ${REGISTRY} --token ${TOKEN} --address ${ADDRESS} --usdt 12.5 --hope 3`,
    )
    expect(within(screen.getByTestId('verify-official')).getByText('官方登记合约')).toBeTruthy()
  })

  test('a proof that does not prove what the app showed fails loudly, saying what to do', async () => {
    verified.current = checkedWith('balance')
    renderVerify(PROOF, { snapshotId: 7, ledgerPosition: '9', usdt: '13', hopeAccounts: '3' })
    expect(
      await screen.findByText(
        '在该快照时，本应用显示你的账户有 13 USDT 和 3 HOPE，而证明与此不符。请保存证明文件并联系客服，在得到解释之前不要再充值。',
      ),
    ).toBeTruthy()
  })

  test('a balance shown at the snapshot with no proof for it fails loudly', async () => {
    renderVerify(null, { snapshotId: 7, ledgerPosition: '9', usdt: '40', hopeAccounts: '0' })
    const missing = await screen.findByTestId('verify-missing')
    expect(missing.dataset.state).toBe('failed')
    expect(within(missing).getByText(/快照中缺少你的余额/)).toBeTruthy()
    expect(missing.textContent).toContain('40 USDT')
  })

  test('a registry the device did not pin fails loudly, with how to check by hand', async () => {
    verified.current = { ...checkedWith(), pinsChanged: ['registry'] } as ProofCheck
    renderVerify(PROOF)
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('failed'))
    const verdict = within(screen.getByTestId('verify-verdict'))
    expect(verdict.getByText('运营方更换了登记合约')).toBeTruthy()
    expect(verdict.getByText(/手动核对：将下方的登记合约/)).toBeTruthy()
    expect(verdict.getByRole('button', { name: '我已手动核对：信任新的地址' })).toBeTruthy()
  })

  test('a check that stays unreachable for more than 36 hours is a failure', async () => {
    window.localStorage.setItem(
      `porInconclusiveSince:${ADDRESS}`,
      String(Date.now() - 37 * 3_600_000),
    )
    verified.current = { ...checkedWith('anchor'), unreachable: true } as ProofCheck
    renderVerify(PROOF)
    await waitFor(() => expect(screen.getByTestId('verify-verdict').dataset.state).toBe('failed'))
    expect(
      within(screen.getByTestId('verify-verdict')).getByText('已超过 36 小时无法验证你的余额'),
    ).toBeTruthy()
    window.localStorage.clear()
  })

  test('a user who joined after the snapshot is told it comes with the next one', async () => {
    const api = renderVerify(null)
    expect(await screen.findByText('你的账户尚未进入已发布的快照')).toBeTruthy()
    expect(api.callsTo('por/myProof')).toHaveLength(1)
  })
})

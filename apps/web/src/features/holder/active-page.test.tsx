import {
  outflowTypedData,
  type AddressCheck,
  type DirectMember,
  type PurchaseResult,
} from '@hope/api'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { useSession } from '../../lib/store.ts'
import {
  createFakeWallet,
  installWallet,
  type FakeWallet,
  preloadWalletSigning,
  signInFakeWallet,
} from '../../test/fake-wallet.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { ActivePage } from './active-page.tsx'
import { membershipKeys } from '../../lib/api/membership.ts'
import { teamKeys } from '../../lib/api/team-keys.ts'
import { directMember, vipInfo } from '../../../test-support/holder-fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** A silver member with a team (partition locked) and a new member not yet placed for good. */
const SILVER = directMember(1)
const NEWCOMER = directMember(2, { level: 0, location: 2, teamPeople: 0, consensus: '0' })
const STRANGER = '0xabcdef0000000000000000000000000000000001'

const activated = (call: ApiCall): PurchaseResult => ({
  paid: '300',
  hope: '2727.272727272727272727',
  level: Number(call.params.level),
  nodes: [],
  replayed: false,
})

const IN_DOWNLINE: AddressCheck = { registered: true, self: false, inDownline: true }

/** The typed data of an activation as the server writes it: the price of a member at level 0. */
const activationTypedData = (call: ApiCall) =>
  ok(
    outflowTypedData({
      kind: 'activate',
      chainId: 1,
      from: useSession.getState().address as `0x${string}`,
      to: call.params.address as `0x${string}`,
      amount: vipInfo().levelPrices[Number(call.params.level) - 1]!,
      idempotencyKey: call.params.idempotencyKey ?? '',
      deadline: Math.floor(Date.now() / 1000) + 600,
    }),
  )

function serve(
  replies: {
    activate?: (call: ApiCall) => Reply
    members?: DirectMember[]
    where?: () => AddressCheck
  } = {},
) {
  const members = replies.members ?? [SILVER, NEWCOMER]
  return fakeApi({
    'userAccount/checkAddress': () => ok((replies.where ?? (() => IN_DOWNLINE))()),
    'game/vipInfo': () => ok(vipInfo()),
    'userAccount/balance': () => ok(balanceList()),
    'game/groupZt': () => ok({ list: members, total: members.length, pageNum: 1, pageSize: 20 }),
    'game/activate': replies.activate ?? ((call) => ok(activated(call))),
    'userAccount/outflowTypedData': activationTypedData,
  })
}

function renderActive() {
  render(
    <MemoryRouter initialEntries={['/active']}>
      <QueryScope>
        <ActivePage />
      </QueryScope>
    </MemoryRouter>,
  )
}

const LEVELS = ['青铜会员', '白银会员', '黄金会员', '铂金会员', '钻石会员', '星耀会员', '至尊会员']
const PARTITIONS = ['左区', '中区', '右区']

/** Level n's button, named by the level (then its price). */
const level = (n: number) =>
  within(screen.getByRole('group', { name: '激活等级' })).getByRole('button', {
    name: new RegExp(`^${LEVELS[n - 1]}`),
  })
const levelPrice = (n: number) => within(level(n)).getByTestId('active-level-price').textContent
const partition = (n: number) =>
  within(screen.getByRole('group', { name: '分区' })).getByRole('button', {
    name: PARTITIONS[n - 1],
  })
const address = () => screen.getByPlaceholderText('请输入地址')
const submit = () => screen.getByRole('button', { name: '激活' })
const confirmSheet = async () => within(await screen.findByTestId('active-confirm-sheet'))

/** Opens the picker of direct members; the sheet does not animate in jsdom. */
async function openPicker() {
  await screen.findByPlaceholderText('请输入地址')
  fireEvent.click(screen.getByRole('button', { name: '选择会员' }))
  return within(await screen.findByTestId('active-picker-sheet'))
}

/** Picks a direct member (each option is named by its masked address). */
async function pick(index: number) {
  const options = await (await openPicker()).findAllByRole('button', { name: /^0x/ })
  fireEvent.click(options[index] as HTMLElement)
  await waitFor(() => expect(screen.queryByTestId('active-picker-sheet')).toBeNull())
}

describe('active page', () => {
  let wallet: FakeWallet
  // The wallet's signing side loads on first use: loaded before the tests, so a test waits on
  // what the screen does, not on a module's first load.
  beforeAll(() =>
    Promise.all([
      loadNamespace('holder'),
      loadNamespace('money'),
      loadNamespace('invite'),
      preloadWalletSigning(),
    ]),
  )
  beforeEach(() => {
    vi.mocked(showToast).mockClear()
    wallet = signInFakeWallet()
  })
  afterEach(() => {
    queryClient.clear()
    installWallet(undefined)
  })

  test('the picker lists my direct members with masked address and level', async () => {
    serve()
    renderActive()
    expect((await screen.findByTestId('active-available')).textContent).toBe('500 USDT')
    const picker = await openPicker()
    expect(picker.getByRole('heading', { name: '选择直推会员' })).toBeTruthy()
    const options = await picker.findAllByRole('button', { name: /^0x/ })
    expect(options.map((o) => o.textContent)).toEqual([
      '0x0001******34abcd白银会员左区',
      '0x0002******34abcd普通用户中区',
    ])
  })

  test('an empty picker says so', async () => {
    serve({ members: [] })
    renderActive()
    const picker = await openPicker()
    expect(await picker.findByText('暂无直推会员')).toBeTruthy()
    expect(picker.queryByRole('button', { name: /^0x/ })).toBeNull()
  })

  test('a picked member fills the address; only higher levels are offered, at the difference', async () => {
    serve()
    renderActive()
    await pick(0)
    expect((address() as HTMLInputElement).value).toBe(SILVER.userName)
    expect(screen.getByText('当前等级：白银会员')).toBeTruthy()
    expect(screen.getByText('当前分区：左区')).toBeTruthy()
    for (const n of [1, 2]) {
      expect(level(n).hasAttribute('disabled')).toBe(true)
      expect(levelPrice(n)).toBe('已达到')
    }
    expect([3, 4, 5, 6, 7].map((n) => level(n).hasAttribute('disabled'))).toEqual(
      Array(5).fill(false),
    )
    expect([3, 4, 5, 6, 7].map(levelPrice)).toEqual([
      '300 USDT',
      '700 USDT',
      '1,700 USDT',
      '4,700 USDT',
      '9,700 USDT',
    ])
  })

  test("a member with a team keeps the partition; a new member's can be chosen", async () => {
    serve()
    renderActive()
    await pick(0)
    expect(partition(1).getAttribute('aria-pressed')).toBe('true')
    expect([2, 3].map((n) => partition(n).hasAttribute('disabled'))).toEqual([true, true])
    expect(screen.getByText('该会员已激活或已有团队，分区不可更改。')).toBeTruthy()
    await pick(1)
    expect(partition(2).getAttribute('aria-pressed')).toBe('true')
    expect([1, 2, 3].map((n) => partition(n).hasAttribute('disabled'))).toEqual([
      false,
      false,
      false,
    ])
    expect(screen.queryByText('该会员已激活或已有团队，分区不可更改。')).toBeNull()
    expect(levelPrice(1)).toBe('100 USDT')
  })

  test('says what is missing before any request', async () => {
    const api = serve()
    renderActive()
    await screen.findByPlaceholderText('请输入地址')
    await userEvent.click(submit())
    expectSaidOnce('请输入地址')
    await userEvent.type(address(), '0x1234')
    await userEvent.click(submit())
    expectSaidOnce('请输入正确的地址')
    await userEvent.clear(address())
    await pick(0)
    await userEvent.click(submit())
    expectSaidOnce('请选择激活等级')
    expect(screen.queryByTestId('active-confirm-sheet')).toBeNull()
    expect(api.callsTo('game/activate')).toHaveLength(0)
  })

  test('a confirmed activation posts once with the member, level, partition and a key', async () => {
    const { reply, release } = heldReply(activated)
    const api = serve({ activate: reply })
    renderActive()
    await pick(1)
    await userEvent.click(level(2))
    expect(level(2).getAttribute('aria-pressed')).toBe('true')
    await userEvent.click(partition(3))
    await userEvent.click(submit())
    const sheet = await confirmSheet()
    expect(sheet.getByRole('heading', { name: '确认激活' })).toBeTruthy()
    expect(sheet.getByTestId('active-confirm-amount').textContent).toBe('300 USDT')
    expect(sheet.getByTestId('active-confirm-address').textContent).toBe('0x0002******34abcd')
    expect(sheet.getByTestId('active-confirm-level').textContent).toBe('白银会员')
    expect(sheet.getByTestId('active-confirm-partition').textContent).toBe('右区')
    expect(sheet.getByTestId('active-confirm-available').textContent).toBe('500 USDT')
    expect(sheet.queryByRole('status')).toBeNull()
    // Paying for another member is an outflow: the sheet says what the wallet will sign.
    expect(
      sheet.getByText(
        '确认后，钱包会请你签名这笔激活：支付 300 USDT 激活 0x0002******34abcd，10 分钟内有效。没有签名，资金不会转出。',
      ),
    ).toBeTruthy()

    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    const confirm = sheet.getByRole('button', { name: '确认激活' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(api.callsTo('game/activate')).toHaveLength(1))
    release()
    const result = within(await screen.findByTestId('active-result'))
    expect(api.callsTo('game/activate')).toHaveLength(1)
    const [call] = api.callsTo('game/activate')
    expect(call?.params).toEqual({
      address: NEWCOMER.userName,
      level: '2',
      location: '3',
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      deadline: expect.stringMatching(/^\d+$/),
    })
    // The wallet signed first, the price the server wrote for this member, level and key.
    expect(api.callsTo('userAccount/outflowTypedData')).toHaveLength(1)
    expect(api.callsTo('userAccount/outflowTypedData')[0]?.params).toEqual({
      kind: 'activate',
      address: NEWCOMER.userName,
      level: '2',
      idempotencyKey: call?.params.idempotencyKey,
    })
    expect(wallet.calls).toContain('eth_signTypedData_v4')
    expect(result.getByTestId('active-result-amount').textContent).toBe('300 USDT')
    expect(result.getByTestId('active-result-level').textContent).toBe('白银会员')
    expect(result.getByTestId('active-result-hope').textContent).toBe('2,727.272727 HOPE')
    expect(invalidate).toHaveBeenCalledWith({ queryKey: teamKeys.all })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: membershipKeys.all })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })

    // Another activation is another request.
    expect(result.getByRole('heading', { name: '激活成功' })).toBeTruthy()
    await userEvent.click(result.getByRole('button', { name: '继续激活' }))
    await pick(0)
    await userEvent.click(level(3))
    await userEvent.click(submit())
    fireEvent.click((await confirmSheet()).getByRole('button', { name: '确认激活' }))
    await waitFor(() => expect(api.callsTo('game/activate')).toHaveLength(2))
    release()
    await screen.findByTestId('active-result')
    const [first, second] = api.callsTo('game/activate')
    expect(second?.params.location).toBe('1')
    expect(second?.params.idempotencyKey).not.toBe(first?.params.idempotencyKey)
  })

  test('a level the USDT cannot pay is refused before any request', async () => {
    const api = serve()
    renderActive()
    await pick(0)
    await userEvent.click(level(5))
    // Said on the form, with what is missing and the way to get it.
    expect(screen.getByRole('status').textContent).toContain('USDT 余额不足')
    expect(screen.getByText('还差 1,200 USDT。')).toBeTruthy()
    expect(screen.getByRole('button', { name: '去充值' })).toBeTruthy()
    await userEvent.click(submit())
    const sheet = await confirmSheet()
    expect(sheet.getByTestId('active-confirm-amount').textContent).toBe('1,700 USDT')
    expect(sheet.getByText('还差 1,200 USDT。')).toBeTruthy()
    const confirm = sheet.getByRole('button', { name: '确认激活' })
    expect(confirm.hasAttribute('disabled')).toBe(true)
    // Whatever a tap would start (the wallet, the request) runs on the clock: run a fake one.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(confirm)
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    expect(wallet.calls).not.toContain('eth_signTypedData_v4')
    expect(api.callsTo('game/activate')).toHaveLength(0)
  })

  test.each([
    [{ registered: true, self: false, inDownline: false }, '接收地址必须是自己共识体系的下级'],
    [{ registered: true, self: true, inDownline: false }, '这是你自己的地址'],
    [{ registered: false, self: false, inDownline: false }, '该地址尚未注册'],
  ])('an address the server reads as %j is refused before the sheet', async (where, said) => {
    const api = serve({ where: () => where })
    renderActive()
    await userEvent.type(await screen.findByPlaceholderText('请输入地址'), STRANGER)
    await userEvent.click(level(1))
    expect((await screen.findByRole('alert')).textContent).toBe(said)
    await userEvent.click(submit())
    expectSaidOnce(said)
    expect(screen.queryByTestId('active-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/checkAddress').at(-1)?.params.address).toBe(STRANGER)
    expect(api.callsTo('game/activate')).toHaveLength(0)
  })

  test('a typed address outside the direct members pays at most the full price, partition kept', async () => {
    const api = serve()
    renderActive()
    await userEvent.type(await screen.findByPlaceholderText('请输入地址'), STRANGER)
    expect(screen.getByText('该地址不在直推列表中，将按其当前等级补差价。')).toBeTruthy()
    expect(levelPrice(1)).toBe('最多 100 USDT')
    expect(levelPrice(4)).toBe('最多 1,000 USDT')
    await userEvent.click(level(2))
    await userEvent.click(submit())
    const sheet = await confirmSheet()
    expect(sheet.getByTestId('active-confirm-amount').textContent).toBe('最多 300 USDT')
    expect(sheet.getByTestId('active-confirm-partition').textContent).toBe('保持当前分区')
    fireEvent.click(sheet.getByRole('button', { name: '确认激活' }))
    await screen.findByTestId('active-result')
    const [call] = api.callsTo('game/activate')
    expect(call?.params.address).toBe(STRANGER)
    expect(call?.params.level).toBe('2')
    expect(call?.params).not.toHaveProperty('location')
  })

  test('refused in the wallet: said once, nothing is sent, the sheet closes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    installWallet(createFakeWallet(undefined, { rejectSign: true }))
    const api = serve()
    renderActive()
    await pick(1)
    await userEvent.click(level(1))
    await userEvent.click(submit())
    fireEvent.click((await confirmSheet()).getByRole('button', { name: '确认激活' }))
    await waitFor(() => expect(screen.queryByTestId('active-confirm-sheet')).toBeNull())
    expect(api.callsTo('game/activate')).toHaveLength(0)
    expect(vi.mocked(showToast).mock.calls).toEqual([['钱包未签名，资金未变动']])
  })

  test("a refusal shows only the server's message and closes the sheet", async () => {
    const api = serve({
      activate: () => fail(409, 'not_downline', '接收地址必须是自己共识体系的下级'),
    })
    renderActive()
    await userEvent.type(await screen.findByPlaceholderText('请输入地址'), STRANGER)
    await userEvent.click(level(1))
    await userEvent.click(submit())
    fireEvent.click((await confirmSheet()).getByRole('button', { name: '确认激活' }))
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('接收地址必须是自己共识体系的下级'))
    await waitFor(() => expect(screen.queryByTestId('active-confirm-sheet')).toBeNull())
    expect(showToast).toHaveBeenCalledTimes(1)
    expect(api.callsTo('game/activate')).toHaveLength(1)
  })
})

import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { showConfirm } from '../../lib/ui/dialog.ts'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { PREFERRED_ACCOUNT_KEY } from '../../lib/wallet/eip1193.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { LoginAccountPage } from './login-account-page.tsx'

vi.mock('../../lib/ui/dialog.ts', () => ({ showConfirm: vi.fn() }))

const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const C = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

function installAccounts(accounts: string[]) {
  const provider = {
    request: vi.fn(({ method }: { method: string }) =>
      method === 'eth_accounts' ? Promise.resolve(accounts) : Promise.reject(new Error(method)),
    ),
  }
  Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, writable: true })
}

function serve() {
  return fakeApi({
    'user/lookup': ({ params }) =>
      params.userName === C
        ? ok(null)
        : ok({
            userName: params.userName,
            nickName: `N-${String(params.userName).slice(-4)}`,
            image: '',
          }),
    'user/logout': () => ok(null),
  })
}

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/loginAccount']}>
      <QueryScope>
        <Routes>
          <Route path="/loginAccount" element={<LoginAccountPage />} />
          <Route path="/" element={<p data-testid="home">home</p>} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
}

const items = () => screen.findAllByTestId('login-account-item')

describe('login by account', () => {
  beforeAll(() => loadNamespace('login'))
  beforeEach(() => {
    queryClient.clear()
    window.localStorage.clear()
    useSession.setState({ address: A, token: 'tok', tokenChecked: true })
  })
  afterEach(() => {
    Object.defineProperty(window, 'ethereum', { value: undefined, configurable: true })
    vi.mocked(showConfirm).mockReset()
  })

  test("lists the wallet's addresses with who is signed in and which are registered", async () => {
    installAccounts([A, B.toUpperCase().replace('0X', '0x'), C])
    serve()
    renderPage()
    const rows = await items()
    expect(rows.map((r) => r.dataset.address)).toEqual([A, B, C])
    expect(rows.map((r) => r.dataset.current)).toEqual(['true', 'false', 'false'])
    await waitFor(() =>
      expect(screen.getAllByTestId('login-account-status').map((s) => s.textContent)).toEqual([
        '当前登录',
        '已注册',
        '未注册',
      ]),
    )
    expect(within(rows[1]!).getByText('N-79c8')).toBeTruthy()
    // An unregistered address has no nickname: its address shows once.
    expect(rows[2]?.textContent?.split('0x3c44******4293bc')).toHaveLength(2)
    expect((rows[0] as HTMLButtonElement).disabled).toBe(true)
    expect(screen.queryByTestId('login-account-single')).toBeNull()
  })

  test('choosing another address signs the old one out and hands the new one to the guard', async () => {
    installAccounts([A, B])
    const api = serve()
    vi.mocked(showConfirm).mockResolvedValue(true)
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /0x7099\*{6}dc79c8/ }))
    expect(await screen.findByText('home')).toBeTruthy()
    expect(api.callsTo('user/logout')).toHaveLength(1)
    expect(window.localStorage.getItem(PREFERRED_ACCOUNT_KEY)).toBe(B)
    expect(useSession.getState()).toMatchObject({ address: B, token: null })
  })

  test('a declined confirmation changes nothing', async () => {
    installAccounts([A, B])
    const api = serve()
    vi.mocked(showConfirm).mockResolvedValue(false)
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /0x7099\*{6}dc79c8/ }))
    await waitFor(() => expect(showConfirm).toHaveBeenCalled())
    expect(api.callsTo('user/logout')).toHaveLength(0)
    expect(window.localStorage.getItem(PREFERRED_ACCOUNT_KEY)).toBeNull()
    expect(useSession.getState()).toMatchObject({ address: A, token: 'tok' })
  })

  test('an address the wallet gives twice is one row', async () => {
    installAccounts([A, C, C.toUpperCase().replace('0X', '0x')])
    serve()
    renderPage()
    await waitFor(async () => expect((await items()).map((r) => r.dataset.address)).toEqual([A, C]))
  })

  test('a wallet with one address says how to use another', async () => {
    installAccounts([A])
    serve()
    renderPage()
    expect(
      await screen.findByText(
        '钱包目前只提供了这一个地址。如需使用其他地址，请先在钱包中添加或切换账户。',
      ),
    ).toBeTruthy()
    expect(await items()).toHaveLength(1)
  })
})

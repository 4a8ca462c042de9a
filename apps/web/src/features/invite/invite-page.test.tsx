import type { LoginResult } from '@hope/api'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { recoverMessageAddress, type Hex } from 'viem'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { Link, MemoryRouter, Route, Routes } from 'react-router'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { QueryScope, queryClient } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { loginPairKey } from '../../lib/wallet/login-pair.ts'
import { fail, fakeApi, ok, type ApiCall } from '../../test/fake-api.ts'
import { createFakeWallet, installWallet, type FakeWallet } from '../../test/fake-wallet.ts'
import { InvitePage } from './invite-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const INVITER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

function renderInvite() {
  return render(
    <MemoryRouter initialEntries={['/invite']}>
      <QueryScope>
        <Routes>
          <Route path="/invite" element={<InvitePage />} />
          <Route path="/" element={<p>home</p>} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
}

function registered(wallet: FakeWallet): LoginResult {
  return {
    id: 3,
    userName: wallet.address.toLowerCase(),
    nickName: '',
    image: '',
    referralCode: 'NEW1',
    level: 0,
    gamePoints: '0',
    invitationLink: '',
    location: 2,
    isRobot: false,
    token: 'new-token',
  }
}

describe('invite page', () => {
  beforeAll(() => loadNamespace('invite'))
  let wallet: FakeWallet
  beforeEach(() => {
    wallet = createFakeWallet()
    installWallet(wallet)
    useSession.getState().setAddress(wallet.address)
    vi.mocked(showToast).mockClear()
  })
  afterEach(() => {
    installWallet(undefined)
    queryClient.clear()
  })

  test('asks for the invitation code when there is no inviter', async () => {
    const api = fakeApi({})
    renderInvite()
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    expect(showToast).toHaveBeenCalledWith('请输入邀请码')
    expect(api.callsTo('user/register')).toHaveLength(0)
  })

  test('registers with the inviter from the link, the partition and a signed message', async () => {
    useSession.getState().setPusername(INVITER)
    const api = fakeApi({
      'user/getUserInfoByName': () => ok({ userName: INVITER, nickName: 'Bob', image: '' }),
      'user/register': () => ok(registered(wallet)),
    })
    renderInvite()
    expect(screen.getByText('0x7099******dc79c8')).toBeTruthy()
    expect(screen.queryByRole('textbox', { name: '邀请码' })).toBeNull()
    await userEvent.click(screen.getByText('中区'))
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy()

    const [call] = api.callsTo('user/register') as [ApiCall]
    expect(call.params).toMatchObject({
      username: wallet.address.toLowerCase(),
      location: '2',
      pusername: INVITER,
    })
    expect(call.params.invitationCode).toBeUndefined()
    const signer = await recoverMessageAddress({
      message: call.params.message ?? '',
      signature: call.params.signature as Hex,
    })
    expect(signer).toBe(wallet.address)
    expect(window.localStorage.getItem('token')).toBe('new-token')
    // The server's Sign-In with Ethereum message, signed, is kept for a retry.
    expect(call.params.message).toMatch(
      /^localhost wants you to sign in with your Ethereum account:/,
    )
    expect(window.sessionStorage.getItem(loginPairKey(wallet.address))).toContain('testNonce1234')
  })

  test('an unknown inviter falls back to the invitation code', async () => {
    useSession.getState().setPusername(INVITER)
    const api = fakeApi({
      'user/getUserInfoByName': () => fail(404, 'not_registered'),
      'user/register': () => ok(registered(wallet)),
    })
    renderInvite()
    expect(await screen.findByText('邀请链接无效，请填写邀请码。')).toBeTruthy()
    await userEvent.type(screen.getByRole('textbox', { name: '邀请码' }), 'ROOT2024')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    await waitFor(() => expect(api.callsTo('user/register')).toHaveLength(1))
    const [call] = api.callsTo('user/register') as [ApiCall]
    expect(call.params.invitationCode).toBe('ROOT2024')
    expect(call.params.pusername).toBeUndefined()
  })

  test('a refused registration keeps the signature: the retry does not ask the wallet again', async () => {
    let answers = 0
    const api = fakeApi({
      'user/register': () =>
        ++answers === 1
          ? fail(400, 'invitation_code_unknown', '邀请码不存在，请检查后重新输入')
          : ok(registered(wallet)),
    })
    renderInvite()
    const input = screen.getByRole('textbox', { name: '邀请码' })
    await userEvent.type(input, 'TYPO1234')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('邀请码不存在，请检查后重新输入'))
    await userEvent.clear(input)
    await userEvent.type(input, 'ROOT2024')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy()
    const [first, second] = api.callsTo('user/register') as [ApiCall, ApiCall]
    expect(second.params.invitationCode).toBe('ROOT2024')
    expect(second.params.signature).toBe(first.params.signature)
    expect(wallet.calls.filter((m) => m === 'personal_sign')).toHaveLength(1)
  })

  test('a mistyped invitation code is said before the wallet is asked to sign', async () => {
    const api = fakeApi({
      'user/checkInvitationCode': (call) =>
        call.params.invitationCode === 'ROOT2024'
          ? ok(null)
          : fail(400, 'invitation_code_unknown', '邀请码不存在，请检查后重新输入'),
      'user/register': () => ok(registered(wallet)),
    })
    renderInvite()
    const input = screen.getByRole('textbox', { name: '邀请码' })
    await userEvent.type(input, 'TYPO1234')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('邀请码不存在，请检查后重新输入'))
    expect(wallet.calls).not.toContain('personal_sign')
    expect(api.callsTo('user/register')).toHaveLength(0)
    await userEvent.clear(input)
    await userEvent.type(input, 'ROOT2024')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy()
    expect(wallet.calls.filter((m) => m === 'personal_sign')).toHaveLength(1)
  })

  test('an inviter the server does not know leaves storage, and says so on this visit', async () => {
    useSession.getState().setPusername(INVITER)
    fakeApi({ 'user/getUserInfoByName': () => fail(404, 'not_registered') })
    renderInvite()
    expect(await screen.findByText('邀请链接无效，请填写邀请码。')).toBeTruthy()
    expect(window.localStorage.getItem('pusername')).toBeNull()
    expect(screen.getByRole('textbox', { name: '邀请码' })).toBeTruthy()
  })

  test('a refused inviter goes once the user leaves the link that named it', async () => {
    useSession.getState().setPusername(INVITER)
    fakeApi({ 'user/getUserInfoByName': () => fail(404, 'not_registered') })
    render(
      <MemoryRouter initialEntries={[`/invite?pusername=${INVITER}`]}>
        <Routes>
          <Route
            path="/invite"
            element={
              <>
                <InvitePage />
                <Link to="/invite">plain</Link>
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    )
    expect(await screen.findByText('邀请链接无效，请填写邀请码。')).toBeTruthy()
    await userEvent.click(screen.getByText('plain'))
    await waitFor(() => expect(screen.queryByText('邀请人')).toBeNull())
    expect(useSession.getState().pusername).toBeNull()
    expect(screen.getByRole('textbox', { name: '邀请码' })).toBeTruthy()
  })

  test('an inviter refused at registration leaves storage, and the code is asked for', async () => {
    useSession.getState().setPusername(INVITER)
    fakeApi({
      'user/getUserInfoByName': () => ok({ userName: INVITER, nickName: 'Bob', image: '' }),
      'user/register': () => fail(400, 'inviter_not_found', '邀请人不存在'),
    })
    renderInvite()
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    expect(await screen.findByText('邀请链接无效，请填写邀请码。')).toBeTruthy()
    expect(screen.getByRole('textbox', { name: '邀请码' })).toBeTruthy()
    expect(window.localStorage.getItem('pusername')).toBeNull()
  })

  test('a refused signature shows 签名失败 and posts nothing', async () => {
    installWallet(createFakeWallet(undefined, { rejectSign: true }))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const api = fakeApi({})
    renderInvite()
    await userEvent.type(screen.getByRole('textbox', { name: '邀请码' }), 'ROOT2024')
    await userEvent.click(screen.getByRole('button', { name: '注册' }))
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('签名失败', 'fail'))
    expect(api.callsTo('user/register')).toHaveLength(0)
  })

  test('a newcomer switches the language before registering, and the page follows', async () => {
    fakeApi({})
    renderInvite()
    const title = screen.getByRole('heading', { level: 2 }).textContent
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '语言' }), 'en')
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2 }).textContent).not.toBe(title),
    )
    expect(localStorage.getItem('lang')).toBe('en')
    await setLanguage('zhcn')
  })
})

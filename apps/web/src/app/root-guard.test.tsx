import type { LoginResult, Page, NewsItem, PublicUser } from '@hope/api'
import { act, render, screen, waitFor } from '@testing-library/react'
import { recoverMessageAddress, type Hex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { useSession } from '../lib/store.ts'
import { fail, fakeApi, ok, type ApiCall } from '../test/fake-api.ts'
import { createFakeWallet, installWallet, TEST_KEYS, type FakeWallet } from '../test/fake-wallet.ts'
import { setActiveProvider } from '../lib/wallet/eip1193.ts'
import { AppRouter } from './router.tsx'

const emptyNews: Page<NewsItem> = { list: [], total: 0, pageNum: 1, pageSize: 3 }

function userOf(wallet: FakeWallet): LoginResult {
  return {
    id: 2,
    userName: wallet.address.toLowerCase(),
    nickName: 'Alice',
    image: '',
    referralCode: 'ALICE1',
    level: 3,
    gamePoints: '0',
    invitationLink: '',
    location: 1,
    isRobot: false,
    token: 'fresh-token',
  }
}

function publicOf(wallet: FakeWallet): PublicUser {
  return { userName: wallet.address.toLowerCase(), nickName: 'Alice', image: '' }
}

function renderApp(hash = '#/') {
  window.location.hash = hash
  return render(<AppRouter />)
}

describe('root guard', () => {
  let wallet: FakeWallet
  beforeEach(() => {
    wallet = createFakeWallet()
    installWallet(wallet)
  })
  afterEach(() => {
    installWallet(undefined)
    setActiveProvider(null)
  })

  test('shows the spinner until the user has a token', async () => {
    let answer: (value: { body: unknown }) => void = () => {}
    fakeApi({
      'user/lookup': () => new Promise((resolve) => (answer = resolve)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('guard-spinner')).toBeTruthy()
    expect(screen.queryByTestId('home-page')).toBeNull()
    answer(ok(publicOf(wallet)))
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.queryByTestId('guard-spinner')).toBeNull()
  })

  test('sends an unregistered address to /invite', async () => {
    const api = fakeApi({
      'user/lookup': () => ok(null),
      'main/news': () => ok(emptyNews),
    })
    renderApp('#/assets')
    expect(await screen.findByTestId('invite-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(window.location.hash).toBe('#/invite')
    expect(api.callsTo('user/logining')).toHaveLength(0)
    expect(wallet.calls).not.toContain('personal_sign')
  })

  test('logs a registered address in with the server’s signed Sign-In with Ethereum message', async () => {
    const api = fakeApi({
      'user/lookup': () => ok(publicOf(wallet)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    const [login] = api.callsTo('user/logining') as [ApiCall]
    expect(login.params.username).toBe(wallet.address.toLowerCase())
    expect(login.params.message).toMatch(
      /^localhost wants you to sign in with your Ethereum account:\n/,
    )
    expect(api.callsTo('user/loginMessage')).toHaveLength(1)
    const signer = await recoverMessageAddress({
      message: login.params.message ?? '',
      signature: login.params.signature as Hex,
    })
    expect(signer).toBe(wallet.address)
    expect(window.localStorage.getItem('token')).toBe('fresh-token')
    expect(useSession.getState().userInfo?.nickName).toBe('Alice')
    expect(screen.getByText('Alice')).toBeTruthy()
  })

  test('a stored token that still answers needs no signature', async () => {
    window.localStorage.setItem('token', 'kept-token')
    useSession.setState({ token: 'kept-token' })
    const { token: _, ...user } = userOf(wallet)
    const api = fakeApi({
      'user/getUserInfo': (call) =>
        call.headers.token === 'kept-token' ? ok(user) : fail(401, 'not_logged_in'),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(wallet.calls).not.toContain('personal_sign')
    expect(api.callsTo('user/logining')).toHaveLength(0)
    expect(api.callsTo('user/lookup')).toHaveLength(0)
  })

  test('a stored token issued to this wallet shows the screens while it is confirmed', async () => {
    const address = wallet.address.toLowerCase()
    window.localStorage.setItem('token', 'kept-token')
    window.localStorage.setItem('tokenAddress', address)
    useSession.setState({ token: 'kept-token', tokenAddress: address })
    const { token: _, ...user } = userOf(wallet)
    let answer: (value: { body: unknown }) => void = () => {}
    const api = fakeApi({
      'user/getUserInfo': () => new Promise((resolve) => (answer = resolve)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(useSession.getState().tokenChecked).toBe(false)
    await waitFor(() => expect(api.callsTo('user/getUserInfo').length).toBeGreaterThan(0))
    act(() => answer(ok(user)))
    await waitFor(() => expect(useSession.getState().tokenChecked).toBe(true))
    expect(screen.getByTestId('home-page')).toBeTruthy()
    expect(wallet.calls).not.toContain('personal_sign')
  })

  test('a token issued to another address is confirmed before any screen shows', async () => {
    window.localStorage.setItem('token', 'kept-token')
    window.localStorage.setItem('tokenAddress', '0x' + '1'.repeat(40))
    useSession.setState({ token: 'kept-token', tokenAddress: '0x' + '1'.repeat(40) })
    const { token: _, ...user } = userOf(wallet)
    let answer: (value: { body: unknown }) => void = () => {}
    // Fake timers, so that whatever React or the guard has scheduled runs before the check.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeApi({
      'user/getUserInfo': () => new Promise((resolve) => (answer = resolve)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('guard-spinner')).toBeTruthy()
    // The guard knows the wallet's address and asks the server: the moment it would show screens.
    await waitFor(() => expect(api.callsTo('user/getUserInfo')).toHaveLength(1))
    await act(() => vi.runOnlyPendingTimersAsync())
    expect(screen.getByTestId('guard-spinner')).toBeTruthy()
    expect(screen.queryByTestId('home-page')).toBeNull()
    act(() => answer(ok(user)))
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    // Confirmed: the address is kept beside the token for the next visit.
    expect(window.localStorage.getItem('tokenAddress')).toBe(wallet.address.toLowerCase())
  })

  /** The server refuses the stored token; the wallet's address is registered and signs in. */
  const refusedTokenApi = () =>
    fakeApi({
      'user/getUserInfo': () => fail(401, 'session_expired'),
      'user/lookup': () => ok(publicOf(wallet)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })

  test('a token shown at once but refused is dropped, and the login steps follow', async () => {
    const address = wallet.address.toLowerCase()
    window.localStorage.setItem('token', 'stale')
    window.localStorage.setItem('tokenAddress', address)
    useSession.setState({ token: 'stale', tokenAddress: address })
    const api = refusedTokenApi()
    renderApp()
    await waitFor(() => expect(api.callsTo('user/logining')).toHaveLength(1), { timeout: 3000 })
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(window.localStorage.getItem('token')).toBe('fresh-token')
    expect(useSession.getState()).toMatchObject({ tokenChecked: true, tokenAddress: address })
    expect(wallet.calls).toContain('personal_sign')
  })

  test('a refused stored token falls back to the login steps', async () => {
    window.localStorage.setItem('token', 'stale')
    useSession.setState({ token: 'stale' })
    const api = refusedTokenApi()
    renderApp()
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(api.callsTo('user/logining')).toHaveLength(1)
    expect(window.localStorage.getItem('token')).toBe('fresh-token')
  })

  test('stores pusername from the query inside the hash', async () => {
    fakeApi({
      'user/lookup': () => ok(null),
      'user/getUserInfoByName': (call) =>
        ok({ userName: call.params.userName, nickName: 'Bob', image: '' }),
    })
    const inviter = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    renderApp(`#/invite?pusername=${inviter}`)
    expect(await screen.findByTestId('invite-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(window.localStorage.getItem('pusername')).toBe(inviter)
    expect(useSession.getState().pusername).toBe(inviter)
    await waitFor(() => expect(screen.getByText('0x7099******dc79c8')).toBeTruthy())
  })

  test('closing the wallet clears the address, token and user info', async () => {
    fakeApi({
      'user/lookup': () => ok(publicOf(wallet)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    act(() => wallet.emit('accountsChanged', []))
    const session = useSession.getState()
    expect([session.address, session.token, session.userInfo]).toEqual([null, null, null])
    expect(window.localStorage.getItem('token')).toBeNull()
    expect(await screen.findByRole('heading', { name: '请连接钱包' })).toBeTruthy()
  })

  describe('after a sign-out', () => {
    const loginApi = () =>
      fakeApi({
        'user/lookup': () => ok(publicOf(wallet)),
        'user/logining': () => ok(userOf(wallet)),
        'user/logout': () => ok(null),
        'main/news': () => ok(emptyNews),
      })

    test('shows the signed-out screen and asks the wallet for nothing', async () => {
      const api = loginApi()
      renderApp()
      expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
      wallet.calls.length = 0
      vi.useFakeTimers({ shouldAdvanceTime: true })
      act(() => useSession.getState().logOut())
      expect(await screen.findByRole('heading', { name: '您已退出登录' })).toBeTruthy()
      expect(screen.getByRole('button', { name: '登录' })).toBeTruthy()
      // Whatever the sign-out set going (requests, timers) runs out before the wallet is checked.
      await act(() => vi.runOnlyPendingTimersAsync())
      expect(wallet.calls).not.toContain('personal_sign')
      expect(api.callsTo('user/logining')).toHaveLength(1)
      expect(window.localStorage.getItem('signedOut')).toBe('1')
    })

    test('a new page stays signed out until the user asks; the sign-in clears the choice', async () => {
      window.localStorage.setItem('signedOut', '1')
      useSession.setState({ signedOut: true })
      const api = loginApi()
      renderApp()
      expect(
        await screen.findByRole('heading', { name: '您已退出登录' }, { timeout: 3000 }),
      ).toBeTruthy()
      expect(api.callsTo('user/lookup')).toHaveLength(0)
      expect(wallet.calls).not.toContain('personal_sign')
      act(() => screen.getByRole('button', { name: '登录' }).click())
      expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
      expect(wallet.calls.filter((c) => c === 'personal_sign')).toHaveLength(1)
      expect(api.callsTo('user/logining')).toHaveLength(1)
      expect(window.localStorage.getItem('signedOut')).toBeNull()
      expect(useSession.getState().signedOut).toBe(false)
    })

    test('a refused signature keeps the choice, so a reload does not sign in by itself', async () => {
      wallet = createFakeWallet(undefined, { rejectSign: true })
      installWallet(wallet)
      window.localStorage.setItem('signedOut', '1')
      useSession.setState({ signedOut: true })
      loginApi()
      renderApp()
      await screen.findByRole('heading', { name: '您已退出登录' }, { timeout: 3000 })
      act(() => screen.getByRole('button', { name: '登录' }).click())
      expect(
        await screen.findByRole('heading', { name: '登录未完成' }, { timeout: 3000 }),
      ).toBeTruthy()
      expect(screen.getByRole('button', { name: '重新签名' })).toBeTruthy()
      expect(window.localStorage.getItem('signedOut')).toBe('1')
    })
  })

  test('without a wallet it asks to open the app in a wallet browser', async () => {
    installWallet(undefined)
    fakeApi({})
    renderApp()
    expect(
      await screen.findByRole('heading', { name: '未检测到钱包' }, { timeout: 3000 }),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy()
  })

  test('a wallet injected after the wait still leads on from "No wallet found"', async () => {
    installWallet(undefined)
    fakeApi({
      'user/lookup': () => ok(publicOf(wallet)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })
    renderApp()
    expect(
      await screen.findByRole('heading', { name: '未检测到钱包' }, { timeout: 3000 }),
    ).toBeTruthy()
    expect(await screen.findByRole('button', { name: '复制链接' })).toBeTruthy()
    installWallet(wallet)
    window.dispatchEvent(new Event('ethereum#initialized'))
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
  })

  test('with several wallets announced the user picks one, and it signs', async () => {
    installWallet(undefined)
    const other = createFakeWallet(TEST_KEYS.bob)
    const announcers = [
      { info: { uuid: 'u1', name: 'Wallet One', icon: '', rdns: 'app.one' }, provider: other },
      { info: { uuid: 'u2', name: 'Wallet Two', icon: '', rdns: 'app.two' }, provider: wallet },
    ]
    const announce = () =>
      announcers.forEach((detail) =>
        window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail })),
      )
    window.addEventListener('eip6963:requestProvider', announce)
    fakeApi({
      'user/lookup': () => ok(publicOf(wallet)),
      'user/logining': () => ok(userOf(wallet)),
      'main/news': () => ok(emptyNews),
    })
    try {
      renderApp()
      expect(
        await screen.findByRole('heading', { name: '选择钱包' }, { timeout: 3000 }),
      ).toBeTruthy()
      act(() => screen.getByRole('button', { name: 'Wallet Two' }).click())
      expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
      expect(wallet.calls).toContain('personal_sign')
      expect(other.calls).not.toContain('personal_sign')
    } finally {
      window.removeEventListener('eip6963:requestProvider', announce)
    }
  })
})

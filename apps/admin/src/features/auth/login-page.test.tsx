import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { getSession } from '../../lib/session.ts'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { dashboard } from '../../../test-support/fixtures.ts'
import { ADMIN, renderApp } from '../../test/render.tsx'

/** The sign-in button's name (antd spaces out two Chinese characters). */
const SIGN_IN = /^登\s?录$/

async function signIn(code = '123456') {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('用户名'), 'alice')
  await user.type(screen.getByLabelText('密码'), 'correct horse')
  await user.type(screen.getByLabelText('动态验证码'), code)
  await user.click(screen.getByRole('button', { name: SIGN_IN }))
}

describe('login', () => {
  test('signs in with password and code, keeps the token for the tab and opens the dashboard', async () => {
    const api = fakeApi({
      'admin/login': () => ok({ token: 'tok-1', username: 'alice', role: 'finance' }),
      'admin/me': () => ok({ username: 'alice', role: 'finance' }),
      'admin/dashboard': () => ok(dashboard()),
    })
    renderApp()
    await signIn()

    expect(await screen.findByTestId('admin-dashboard')).toBeTruthy()
    const [login] = api.callsTo('admin/login')
    expect(login?.method).toBe('POST')
    expect(login?.params).toEqual({ username: 'alice', password: 'correct horse', code: '123456' })
    expect(login?.headers.lan).toBe('zh_CN')
    expect(login?.headers.token).toBeUndefined()
    expect(getSession()).toEqual({ token: 'tok-1', username: 'alice', role: 'finance' })
    expect(window.sessionStorage.length).toBe(1)
    expect(api.callsTo('admin/dashboard')[0]?.headers.token).toBe('tok-1')
    expect(screen.getByText('alice')).toBeTruthy()
    expect(screen.getByText('财务')).toBeTruthy()
  })

  test('shows the server’s message when the sign-in is refused, and stays signed out', async () => {
    fakeApi({ 'admin/login': () => fail(401, 'operator_login_failed', '用户名、密码或验证码错误') })
    renderApp()
    await signIn()

    expect((await screen.findByRole('alert')).textContent).toContain('用户名、密码或验证码错误')
    expect(getSession()).toBeNull()
    expect(screen.queryByTestId('admin-dashboard')).toBeNull()
  })

  test('a code that is not six digits is not sent', async () => {
    const api = fakeApi({})
    renderApp()
    await signIn('12a4')

    expect(await screen.findByText('请输入身份验证器中的 6 位验证码')).toBeTruthy()
    expect(api.calls).toHaveLength(0)
  })

  test('a 401 on any call ends the session and shows the login screen', async () => {
    fakeApi({
      'admin/me': () => ok({ username: 'alice', role: 'admin' }),
      'admin/dashboard': () => fail(401, 'session_expired', '登录已过期'),
    })
    renderApp({ session: ADMIN })

    expect(await screen.findByRole('button', { name: SIGN_IN })).toBeTruthy()
    await waitFor(() => expect(getSession()).toBeNull())
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { getSession, type Session } from '../lib/session.ts'
import { fakeApi, ok } from '../test/fake-api.ts'
import { dashboard } from '../../test-support/fixtures.ts'
import { renderApp } from '../test/render.tsx'

const menuOf = async () => {
  const menu = await screen.findByRole('menu')
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent)
}

function signedInAs(session: Session) {
  return fakeApi({
    'admin/me': () => ok({ username: session.username, role: session.role }),
    'admin/dashboard': () => ok(dashboard()),
    'admin/logout': () => ok(null),
  })
}

describe('console layout', () => {
  test('finance sees money sections only', async () => {
    signedInAs({ token: 't', username: 'fin', role: 'finance' })
    renderApp({ session: { token: 't', username: 'fin', role: 'finance' } })
    expect(await menuOf()).toEqual(['概览', '用户', '提现审核', '充值记录', '日结算', '储备证明'])
  })

  test('content sees the dashboard and content; support the users and chat', async () => {
    signedInAs({ token: 't', username: 'ed', role: 'content' })
    const { unmount } = renderApp({
      session: { token: 't', username: 'ed', role: 'content' },
    })
    expect(await menuOf()).toEqual(['概览', '内容管理'])
    unmount()

    signedInAs({ token: 't', username: 'sue', role: 'support' })
    renderApp({ session: { token: 't', username: 'sue', role: 'support' } })
    expect(await menuOf()).toEqual(['概览', '用户', '在线客服'])
  })

  test('admin sees every section including settings and the audit log', async () => {
    signedInAs({ token: 't', username: 'root', role: 'admin' })
    renderApp({ session: { token: 't', username: 'root', role: 'admin' } })
    const items = await menuOf()
    expect(items).toHaveLength(10)
    expect(items).toContain('系统设置')
    expect(items).toContain('操作日志')
  })

  test('a section outside the role leads back to the dashboard', async () => {
    signedInAs({ token: 't', username: 'ed', role: 'content' })
    window.location.hash = '#/settings'
    renderApp({ session: { token: 't', username: 'ed', role: 'content' } })
    expect(await screen.findByTestId('admin-dashboard')).toBeTruthy()
    expect(screen.queryByTestId('admin-settings')).toBeNull()
    window.location.hash = ''
  })

  test('the language switch changes the texts and the lan header; logout signs out', async () => {
    const api = signedInAs({ token: 't', username: 'root', role: 'admin' })
    renderApp({ session: { token: 't', username: 'root', role: 'admin' } })
    const user = userEvent.setup()
    await screen.findByTestId('admin-dashboard')
    await user.click(screen.getByText('English'))
    expect(await screen.findByText('Audit log')).toBeTruthy()

    await user.click(screen.getByText('Sign out'))
    expect(await screen.findByRole('button', { name: /^Sign in$/ })).toBeTruthy()
    expect(api.callsTo('admin/logout')[0]?.headers).toMatchObject({ token: 't', lan: 'en_US' })
    expect(getSession()).toBeNull()
  })
})

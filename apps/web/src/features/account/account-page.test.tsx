import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, test } from 'vitest'
import { i18n } from '../../lib/i18n/i18n.ts'
import { request } from '../../lib/api/request.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { renderAt } from '../../test/render-at.tsx'
import { AccountPage } from './account-page.tsx'

/** My account at `/account`; any page it opens shows its path in `where`. */
function renderAccount() {
  return renderAt('/account', <AccountPage />)
}

describe('account page', () => {
  afterEach(async () => {
    await i18n.changeLanguage('zhcn')
  })

  test('switching language changes the texts at once, the lan header and the stored choice', async () => {
    const api = fakeApi({ 'user/getUserInfo': () => ok({}) })
    renderAccount()
    expect(screen.getByRole('button', { name: '退出登录' })).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: '语言' }))
    // The popup's opening animation does not run in jsdom, so click the option directly.
    fireEvent.click(await screen.findByText('English'))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy())
    expect(window.localStorage.getItem('lang')).toBe('en')
    expect(screen.getByTestId('lang-row').textContent).toContain('English')
    await request('user/getUserInfo')
    expect(api.calls.at(-1)?.headers.lan).toBe('en_US')
  })

  test('invite friends and login by account open from the account page', async () => {
    fakeApi({ 'user/getUserInfo': () => ok({}) })
    renderAccount()
    await userEvent.click(screen.getByRole('link', { name: '账户登录' }))
    expect((await screen.findByTestId('where')).textContent).toBe('/loginAccount')
  })

  test('the menu is links and a button a keyboard reaches, each named', async () => {
    fakeApi({ 'user/getUserInfo': () => ok({}) })
    renderAccount()
    for (const [name, href] of [
      ['邀请好友', '/share'],
      ['账户登录', '/loginAccount'],
      ['商学院', '/school'],
      ['联系我们', '/contact'],
    ])
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href)
    const language = screen.getByRole('button', { name: '语言' })
    language.focus()
    expect(document.activeElement).toBe(language)
    // Enter on a focused link follows it.
    const school = screen.getByRole('link', { name: '商学院' })
    school.focus()
    await userEvent.keyboard('{Enter}')
    expect((await screen.findByTestId('where')).textContent).toBe('/school')
  })

  test('the news module shows the latest articles in the chosen language; school and contact us open from here', async () => {
    const api = fakeApi({
      'user/getUserInfo': () => ok({}),
      'main/news': (call) =>
        ok({
          list: [
            {
              id: 4,
              type: 1,
              title: call.headers.lan === 'en_US' ? 'Stage 1 is open' : '第一阶段开放',
              summary: '',
              content: '',
              image: '',
              lang: call.headers.lan === 'en_US' ? 'en' : 'zhcn',
              publishedAt: '2026-05-01T08:00:00Z',
            },
          ],
          total: 1,
          pageNum: 1,
          pageSize: 3,
        }),
    })
    const { unmount } = renderAccount()
    const news = await screen.findByTestId('account-news')
    expect(await within(news).findByText('第一阶段开放')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '语言' }))
    fireEvent.click(await screen.findByText('English'))
    expect(
      await within(screen.getByTestId('account-news')).findByText('Stage 1 is open'),
    ).toBeTruthy()
    expect(api.callsTo('main/news').at(-1)?.headers.lan).toBe('en_US')
    expect(screen.getByRole('link', { name: 'Contact us' })).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: /Stage 1 is open/ }))
    expect((await screen.findByTestId('where')).textContent).toBe('/news/4')
    unmount()
    renderAccount()
    await userEvent.click(screen.getByRole('link', { name: 'Contact us' }))
    expect((await screen.findByTestId('where')).textContent).toBe('/contact')
  })

  test('the business school opens from the account page', async () => {
    fakeApi({ 'user/getUserInfo': () => ok({}) })
    renderAccount()
    await userEvent.click(screen.getByRole('link', { name: '商学院' }))
    expect((await screen.findByTestId('where')).textContent).toBe('/school')
  })
})

import type { ContactInfo } from '@hope/api'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { ContactPage } from './contact-page.tsx'

// The "copied" toast would be drawn after its import resolves, possibly after the file ended.
vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

await loadNamespace('chat')

const info: ContactInfo = {
  email: 'support@hope.example',
  hoursFrom: '09:00',
  hoursTo: '21:00',
  utcOffsetMinutes: 480,
}

function renderContact(opts: { unread?: number; contact?: () => ReturnType<typeof ok> } = {}) {
  const api = fakeApi({
    'main/contact': opts.contact ?? (() => ok(info)),
    'chat/unread': () => ok({ count: opts.unread ?? 0 }),
  })
  render(
    <MemoryRouter initialEntries={['/contact']}>
      <QueryScope>
        <ContactPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

describe('contact screen', () => {
  beforeEach(() => useSession.setState({ token: 'tok' }))
  afterEach(() => queryClient.clear())

  test('the support e-mail with a copy button, the hours and the way into the chat', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    renderContact()
    const email = await screen.findByRole('link', { name: 'support@hope.example' })
    expect(email.getAttribute('href')).toBe('mailto:support@hope.example')
    expect(screen.getByText('每天 09:00–21:00（UTC+8）')).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: '复制' }))
    expect(writeText).toHaveBeenCalledWith('support@hope.example')
    expect(showToast).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('link', { name: /在线客服/ }).getAttribute('href')).toBe('/chat')
    expect(screen.queryByLabelText(/未读消息/)).toBeNull()
  })

  test('the chat entry shows how many answers wait unread', async () => {
    renderContact({ unread: 3 })
    expect((await screen.findByLabelText('未读消息：3')).textContent).toBe('3')
  })

  test('no unread count is asked for without a session', async () => {
    useSession.setState({ token: null })
    const api = renderContact({ unread: 3 })
    await screen.findByRole('link', { name: 'support@hope.example' })
    expect(api.callsTo('chat/unread')).toEqual([])
    expect(screen.queryByLabelText(/未读消息/)).toBeNull()
  })

  test('a failed load offers a retry', async () => {
    let calls = 0
    renderContact({
      contact: () => (++calls === 1 ? fail(503, 'service_unavailable') : ok(info)),
    })
    await userEvent.click(await screen.findByRole('button', { name: '加载失败，点击重试' }))
    expect(await screen.findByRole('link', { name: 'support@hope.example' })).toBeTruthy()
  })
})

import type { ChatHistory, ChatMessage } from '@hope/api'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { installFakeWebSocket, type FakeWebSocket } from '../../test/fake-websocket.ts'
import { ChatPage } from './chat-page.tsx'

await loadNamespace('chat')

let nextId = 100
const message = (body: string, changes: Partial<ChatMessage> = {}): ChatMessage => ({
  id: ++nextId,
  clientId: `srv${nextId}xx`,
  sender: 'operator',
  body,
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

function renderChat(
  pages: (beforeId: string | undefined) => ChatHistory = () => ({ list: [], nextBeforeId: null }),
  extra: { send?: (call: ApiCall) => Reply } = {},
) {
  const sockets = installFakeWebSocket()
  const api = fakeApi({
    'chat/history': (call) => ok(pages(call.params.beforeId)),
    'chat/read': () => ok({ count: 0 }),
    'chat/unread': () => ok({ count: 0 }),
    // The fallback finds no network unless a test says otherwise.
    'chat/send': extra.send ?? (() => Promise.reject(new TypeError('Failed to fetch'))),
  })
  render(
    <MemoryRouter initialEntries={['/chat']}>
      <QueryScope>
        <ChatPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return { api, ...sockets }
}

/** The server side of a socket: accepts it and answers its auth frame. */
function accept(socket: FakeWebSocket, unread = 0) {
  act(() => {
    socket.open()
    socket.receive({ type: 'ready', unread })
  })
}

const GREETING = '您好！有任何问题都可以在这里留言，客服会尽快回复您。'
const bubbles = () => screen.queryAllByTestId('chat-message')
const typeAndSend = async (text: string) => {
  await userEvent.type(screen.getByPlaceholderText('输入消息…'), text)
  await userEvent.click(screen.getByRole('button', { name: '发送' }))
}

describe('chat screen', () => {
  beforeEach(() => {
    useSession.setState({ token: 'tok' })
  })
  afterEach(() => queryClient.clear())

  test('says there is nothing yet, and authenticates the socket with the token', async () => {
    const { latest } = renderChat()
    expect(await screen.findByText(GREETING)).toBeTruthy()
    expect(latest().url).toBe('ws://localhost:3000/api/chat/ws')
    act(() => latest().open())
    expect(latest().sent[0]).toEqual({ type: 'auth', token: 'tok', lan: 'zh_CN' })
    expect(screen.getByRole('status').textContent).toBe('正在连接…')
    accept(latest())
    expect(screen.queryByRole('status')).toBeNull()
  })

  test('a message shows at once as pending and is confirmed by the ack', async () => {
    const { latest } = renderChat()
    accept(latest())
    await typeAndSend('  my deposit is missing  ')
    expect(bubbles()).toHaveLength(1)
    expect(bubbles()[0]!.dataset).toMatchObject({ mine: 'true', pending: 'true' })
    expect(bubbles()[0]!.textContent).toContain('my deposit is missing')
    expect(screen.getByPlaceholderText('输入消息…')).toHaveProperty('value', '')
    const sent = latest().sentOfType('send')
    expect(sent).toEqual([
      {
        type: 'send',
        clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
        body: 'my deposit is missing',
      },
    ])
    const clientId = sent[0]!.clientId as string
    const stored = message('my deposit is missing', { sender: 'user', clientId })
    act(() => latest().receive({ type: 'ack', clientId, message: stored }))
    // The same message also comes as a live message: it still shows once.
    act(() => latest().receive({ type: 'message', message: stored }))
    expect(bubbles()).toHaveLength(1)
    expect(bubbles()[0]!.dataset).toMatchObject({ mine: 'true', pending: 'false' })
    // The greeting stays at the top of the conversation.
    expect(screen.getByText(GREETING)).toBeTruthy()
  })

  test('after a dropped connection the unconfirmed message goes again, with the same id, once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    // The failed fallback is logged by the request wrapper.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { latest, sockets, api } = renderChat()
    accept(latest())
    await typeAndSend('hello?')
    const clientId = latest().sentOfType('send')[0]!.clientId as string
    act(() => latest().drop())
    expect(screen.getByRole('status').textContent).toBe('网络已断开，正在重新连接…')
    // The HTTP fallback was tried with the same id too, but nothing answered.
    await waitFor(() =>
      expect(api.callsTo('chat/send')[0]?.params).toEqual({ clientId, body: 'hello?' }),
    )
    expect(bubbles()[0]!.dataset.pending).toBe('true')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000)
    })
    expect(sockets).toHaveLength(2)
    accept(latest())
    expect(latest().sentOfType('send')).toEqual([{ type: 'send', clientId, body: 'hello?' }])
    const stored = message('hello?', { sender: 'user', clientId })
    act(() => latest().receive({ type: 'ack', clientId, message: stored }))
    expect(bubbles()).toHaveLength(1)
    expect(bubbles()[0]!.dataset.pending).toBe('false')
  })

  test('while the socket is down the message goes over HTTP and is confirmed from there', async () => {
    const { latest, api } = renderChat(undefined, {
      send: (call) =>
        ok({
          message: message(call.params.body!, { sender: 'user', clientId: call.params.clientId! }),
          replayed: false,
        }),
    })
    act(() => latest().drop())
    await typeAndSend('via http')
    await waitFor(() => expect(bubbles()[0]!.dataset.pending).toBe('false'))
    expect(api.callsTo('chat/send')).toHaveLength(1)
    expect(bubbles()).toHaveLength(1)
  })

  test('a refused message is marked, and can be sent again', async () => {
    const { latest } = renderChat()
    accept(latest())
    await typeAndSend('spam')
    const clientId = latest().sentOfType('send')[0]!.clientId as string
    act(() =>
      latest().receive({
        type: 'error',
        clientId,
        code: 429,
        reason: 'rate_limited',
        msg: '操作过于频繁，请稍后再试',
      }),
    )
    expect(bubbles()[0]!.dataset).toMatchObject({ pending: 'true', failed: 'true' })
    await userEvent.click(screen.getByText('发送失败，点击重试'))
    expect(
      latest()
        .sentOfType('send')
        .map((f) => f.clientId),
    ).toEqual([clientId, clientId])
    expect(bubbles()[0]!.dataset.failed).toBe('false')
  })

  test('live support answers show and are marked read; the server answers newest first', async () => {
    const older = [message('welcome'), message('hi', { sender: 'user' })]
    const { latest, api } = renderChat(() => ({ list: [...older].reverse(), nextBeforeId: null }))
    await waitFor(() => expect(bubbles()).toHaveLength(2))
    expect(bubbles().map((b) => b.dataset.mine)).toEqual(['false', 'true'])
    await waitFor(() =>
      expect(api.callsTo('chat/read')[0]?.params).toEqual({ upToId: String(older[0]!.id) }),
    )
    accept(latest())
    const answer = message('how can we help?')
    act(() => latest().receive({ type: 'message', message: answer }))
    expect(bubbles().at(-1)!.textContent).toContain('how can we help?')
    expect(bubbles().at(-1)!.dataset.mine).toBe('false')
    await waitFor(() =>
      expect(api.callsTo('chat/read').at(-1)?.params).toEqual({ upToId: String(answer.id) }),
    )
  })

  test('older messages load a page at a time above the newest', async () => {
    const oldest = [message('one'), message('two')]
    const newest = [message('three'), message('four')]
    // Pages are newest first; the older page is asked for by the oldest id shown.
    const { api } = renderChat((beforeId) =>
      beforeId === undefined
        ? { list: [...newest].reverse(), nextBeforeId: newest[0]!.id }
        : { list: [...oldest].reverse(), nextBeforeId: null },
    )
    await waitFor(() => expect(bubbles()).toHaveLength(2))
    await userEvent.click(screen.getByRole('button', { name: '查看更早的消息' }))
    await waitFor(() => expect(bubbles()).toHaveLength(4))
    expect(bubbles().map((b) => b.querySelector('.chat-message__body')!.textContent)).toEqual([
      'one',
      'two',
      'three',
      'four',
    ])
    expect(api.callsTo('chat/history').at(-1)?.params).toMatchObject({
      beforeId: String(newest[0]!.id),
    })
    expect(screen.queryByTestId('chat-older')).toBeNull()
  })

  test('scrolling to the top loads the older page too', async () => {
    const { api } = renderChat((beforeId) =>
      beforeId === undefined
        ? { list: [message('new')], nextBeforeId: 5 }
        : { list: [message('old')], nextBeforeId: null },
    )
    const older = await screen.findByRole('button', { name: '查看更早的消息' })
    fireEvent.scroll(older.parentElement!)
    await waitFor(() =>
      expect(api.callsTo('chat/history').some((c) => c.params.beforeId === '5')).toBe(true),
    )
  })

  test('Enter sends, an empty text never does', async () => {
    const { latest } = renderChat()
    accept(latest())
    expect(screen.getByRole('button', { name: '发送' })).toHaveProperty('disabled', true)
    await userEvent.type(screen.getByPlaceholderText('输入消息…'), '   {Enter}')
    expect(latest().sentOfType('send')).toEqual([])
    await userEvent.type(
      screen.getByPlaceholderText('输入消息…'),
      'line one{Shift>}{Enter}{/Shift}line two{Enter}',
    )
    expect(
      latest()
        .sentOfType('send')
        .map((f) => f.body),
    ).toEqual(['line one\nline two'])
  })

  test('a socket closed for a lost session signs out', async () => {
    const { latest, sockets } = renderChat()
    act(() => latest().open())
    act(() => latest().drop(4401, 'session_expired'))
    expect(useSession.getState().token).toBeNull()
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      '登录已失效，请重新登录',
    )
    expect(sockets).toHaveLength(1)
  })
})

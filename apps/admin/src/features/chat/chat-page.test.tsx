import type { AdminChatMessage } from '@hope/api'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { ChatPage } from './chat-page.tsx'

const REPLY = '输入回复，Enter 发送，Shift+Enter 换行'
const BOB = `0x${'b'.repeat(40)}`
const message = (id: number, over: Partial<AdminChatMessage> = {}): AdminChatMessage => ({
  id,
  clientId: `client-${id}`,
  sender: 'user',
  body: `message ${id}`,
  createdAt: '2026-01-02T03:04:05Z',
  operator: null,
  ...over,
})

describe('support chat', () => {
  test('opening a conversation marks it read; a reply keeps its client id through a retry', async () => {
    let replies = 0
    const api = fakeApi({
      'admin/chatList': () =>
        ok({
          list: [{ userName: BOB, nickName: 'Bob', unread: 2, lastMessage: message(12) }],
          nextBeforeId: null,
        }),
      'admin/chatHistory': () => ok({ list: [message(12), message(11)], nextBeforeId: null }),
      'admin/chatRead': () => ok({ count: 0 }),
      'admin/chatReply': ({ params }) =>
        ++replies === 1
          ? fail(503, 'service_unavailable', '服务暂不可用')
          : ok({
              message: message(13, { sender: 'operator', body: params.body!, operator: 'alice' }),
              replayed: false,
            }),
    })
    renderScreen(<ChatPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByText('Bob'))
    expect(await screen.findByText('message 11')).toBeTruthy()
    await waitFor(() =>
      expect(api.callsTo('admin/chatRead')[0]?.params).toEqual({ userName: BOB, upToId: '12' }),
    )

    await user.type(screen.getByPlaceholderText(REPLY), '您好，请稍等')
    await user.click(screen.getByRole('button', { name: /^发\s?送$/ }))
    expect(await screen.findByText('服务暂不可用')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: /^发\s?送$/ }))
    await waitFor(() => expect(api.callsTo('admin/chatReply')).toHaveLength(2))

    const [first, retry] = api.callsTo('admin/chatReply')
    expect(first?.params).toMatchObject({ userName: BOB, body: '您好，请稍等' })
    expect(first?.params.clientId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(retry?.params.clientId).toBe(first?.params.clientId)
    await waitFor(() =>
      expect((screen.getByPlaceholderText(REPLY) as HTMLTextAreaElement).value).toBe(''),
    )
  })
})

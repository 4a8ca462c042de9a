import { CHAT_BODY_MAX, type AdminChatMessage } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Empty, Input, Skeleton, Space, Typography } from 'antd'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { newIdempotencyKey } from '../../lib/idempotency-key.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { errorText } from '../../lib/request.ts'
import { fetchOlder, historyOptions, useMarkRead, useReply } from './api/chat.ts'

function Message({ message }: { message: AdminChatMessage }) {
  const mine = message.sender === 'operator'
  return (
    <div className={`admin-chat-message ${mine ? 'is-operator' : 'is-user'}`}>
      <div className="admin-chat-bubble">{message.body}</div>
      <Typography.Text type="secondary" className="admin-chat-meta">
        {mine && message.operator ? `${message.operator} · ` : ''}
        {formatTime(message.createdAt)}
      </Typography.Text>
    </div>
  )
}

/** One user's conversation: polled history, older pages on demand, and the reply box. */
export function Conversation({ userName, unread }: { userName: string; unread: number }) {
  const { t } = useTranslation()
  const history = useQuery(historyOptions(userName))
  const [older, setOlder] = useState<{ list: AdminChatMessage[]; next: number | null } | null>(null)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [olderError, setOlderError] = useState<unknown>(null)
  const [draft, setDraft] = useState('')
  /** One client id per message the operator means: a retry after a failure is not a second one. */
  const clientId = useRef<string | null>(null)
  const bottom = useRef<HTMLDivElement>(null)
  const markRead = useMarkRead()
  const reply = useReply({
    meta: { inlineError: true },
    onSuccess: () => {
      clientId.current = null
      setDraft('')
    },
  })

  const messages = useMemo(() => {
    const newest = history.data?.list ?? []
    const seen = new Set(newest.map((m) => m.id))
    const rest = (older?.list ?? []).filter((m) => !seen.has(m.id))
    return [...newest, ...rest].reverse()
  }, [history.data, older])
  const newestId = history.data?.list[0]?.id
  const nextBeforeId = older ? older.next : (history.data?.nextBeforeId ?? null)

  // Opening a conversation with unread messages (or receiving new ones) marks them read once.
  const markedUpTo = useRef(0)
  const { mutate: markReadUpTo } = markRead
  useEffect(() => {
    if (unread > 0 && newestId !== undefined && newestId > markedUpTo.current) {
      markedUpTo.current = newestId
      markReadUpTo({ userName, upToId: newestId })
    }
  }, [userName, unread, newestId, markReadUpTo])

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' })
  }, [newestId])

  const loadOlder = async () => {
    if (nextBeforeId === null) return
    setLoadingOlder(true)
    setOlderError(null)
    try {
      const page = await fetchOlder(userName, nextBeforeId)
      setOlder((prev) => ({ list: [...(prev?.list ?? []), ...page.list], next: page.nextBeforeId }))
    } catch (error) {
      setOlderError(error)
    } finally {
      setLoadingOlder(false)
    }
  }

  const send = () => {
    const body = draft.trim()
    if (!body || reply.isPending) return
    clientId.current ??= newIdempotencyKey()
    reply.mutate({ userName, clientId: clientId.current, body })
  }

  return (
    <div className="admin-chat-conversation">
      <div className="admin-chat-messages" data-testid="admin-chat-messages">
        {history.isError ? (
          <LoadError error={history.error} onRetry={() => void history.refetch()} />
        ) : history.isPending ? (
          <Skeleton active />
        ) : messages.length === 0 ? (
          <Empty description={t('chat.noMessages')} />
        ) : (
          <>
            {nextBeforeId !== null && (
              <div style={{ textAlign: 'center' }}>
                <Button size="small" type="link" loading={loadingOlder} onClick={loadOlder}>
                  {t('chat.loadOlder')}
                </Button>
              </div>
            )}
            {olderError !== null && (
              <Alert type="error" title={errorText(olderError, t('common.networkError'))} />
            )}
            {messages.map((m) => (
              <Message key={m.id} message={m} />
            ))}
            <div ref={bottom} />
          </>
        )}
      </div>
      <div className="admin-chat-compose">
        {reply.isError && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 8 }}
            title={errorText(reply.error, t('common.networkError'))}
          />
        )}
        <Space.Compact style={{ width: '100%' }}>
          <Input.TextArea
            value={draft}
            maxLength={CHAT_BODY_MAX}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={t('chat.replyPlaceholder')}
            data-testid="admin-chat-reply"
            onChange={(e) => {
              setDraft(e.target.value)
              clientId.current = null
            }}
            onPressEnter={(e) => {
              // Enter also confirms a Chinese input method's candidate: that is not a send.
              if (!e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault()
                send()
              }
            }}
          />
          <Button
            type="primary"
            style={{ height: 'auto' }}
            loading={reply.isPending}
            disabled={!draft.trim()}
            onClick={send}
            data-testid="admin-chat-send"
          >
            {t('chat.send')}
          </Button>
        </Space.Compact>
      </div>
    </div>
  )
}

import type { AdminChatConversation } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Badge, Card, Empty, Skeleton, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, shorten } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { conversationsOptions } from './api/chat.ts'
import { Conversation } from './conversation.tsx'
import './chat.css'

/** The support inbox: conversations with unread badges, and the open one with its reply box. */
export function ChatPage() {
  const { t } = useTranslation()
  const list = useQuery(conversationsOptions())
  const [open, setOpen] = useState<string | null>(null)
  const conversations = list.data?.list ?? []
  const current = conversations.find((c) => c.userName === open)

  const item = (c: AdminChatConversation) => (
    <li
      key={c.userName}
      className={`admin-chat-item${c.userName === open ? ' is-open' : ''}`}
      data-testid={`admin-chat-conversation-${c.userName}`}
      onClick={() => setOpen(c.userName)}
    >
      <span className="admin-chat-item-title">
        <Typography.Text strong>{c.nickName || shorten(c.userName)}</Typography.Text>
        <Badge count={c.unread} size="small" />
      </span>
      <Typography.Text type="secondary" ellipsis className="admin-chat-preview">
        {c.lastMessage?.body ?? ''}
      </Typography.Text>
      <Typography.Text type="secondary" className="admin-chat-meta">
        {formatTime(c.lastMessage?.createdAt)}
      </Typography.Text>
    </li>
  )

  return (
    <div className="admin-chat" data-testid="admin-chat">
      <Card className="admin-chat-list" title={t('chat.conversations')} size="small">
        {list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.isPending ? (
          <Skeleton active />
        ) : conversations.length === 0 ? (
          <Empty description={t('chat.noConversations')} />
        ) : (
          <ul className="admin-chat-items">{conversations.map(item)}</ul>
        )}
      </Card>
      <Card
        className="admin-chat-panel"
        size="small"
        title={
          open ? (
            <Typography.Text className="admin-mono" copyable>
              {open}
            </Typography.Text>
          ) : (
            t('chat.pick')
          )
        }
      >
        {open ? (
          <Conversation key={open} userName={open} unread={current?.unread ?? 0} />
        ) : (
          <Empty description={t('chat.pick')} />
        )}
      </Card>
    </div>
  )
}

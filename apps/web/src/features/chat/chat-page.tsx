// `#/chat`. Test ids: screen-chat, chat-message (data-mine, data-pending, data-failed),
// chat-input, chat-send, chat-empty, chat-older, chat-status.
import { CHAT_BODY_MAX, normalizeLang, type ChatMessage } from '@hope/api'
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../lib/format/format.ts'
import { useMarkChatRead } from './api/mark-chat-read.ts'
import { latestOperatorMessageId, type PendingMessage } from './chat.rules.ts'
import { useChat } from './use-chat.ts'
import './chat.css'

/** Within this many pixels of the top, the older page loads by itself. */
const OLDER_THRESHOLD_PX = 48
/** Within this many pixels of the bottom, a new message scrolls into view. */
const STICK_THRESHOLD_PX = 80

function Bubble({
  mine,
  body,
  time,
  pending,
  failed,
  onRetry,
}: {
  mine: boolean
  body: string
  time?: string
  pending: boolean
  failed?: string | undefined
  onRetry?: () => void
}) {
  const { t } = useTranslation('chat')
  return (
    <li
      className={`chat-message ${mine ? 'chat-message--mine' : 'chat-message--theirs'}`}
      data-testid="chat-message"
      data-mine={mine}
      data-pending={pending}
      data-failed={Boolean(failed)}
    >
      {!mine && <span className="chat-message__who">{t('chat.support')}</span>}
      <p className="chat-message__body">{body}</p>
      <span className="chat-message__meta">
        {failed ? (
          <button type="button" className="chat-message__retry" onClick={onRetry}>
            {t('chat.failed')}
          </button>
        ) : pending ? (
          t('chat.sending')
        ) : (
          time
        )}
      </span>
    </li>
  )
}

/**
 * `#/chat`: the conversation with support. Messages show at once and are marked as sending
 * until the server has stored them; the connection comes back by itself and sends again what
 * was not confirmed. Scrolling to the top loads older messages.
 */
export function ChatPage() {
  const { t, i18n } = useTranslation('chat')
  const lang = normalizeLang(i18n.language)
  const chat = useChat()
  const [text, setText] = useState('')
  const list = useRef<HTMLDivElement>(null)
  const markRead = useMarkChatRead()
  const readUpTo = useRef(0)

  // Keep the reader where they were when older messages come in above, and follow new ones
  // at the bottom when they were already there (or wrote the message themselves).
  const firstId = chat.messages[0]?.id
  const lastKey = `${chat.messages.at(-1)?.id ?? 0}:${chat.pending.length}`
  const scroll = useRef({ height: 0, top: 0, firstId, lastKey, atBottom: true })
  useLayoutEffect(() => {
    const el = list.current
    if (!el) return
    const before = scroll.current
    if (firstId !== before.firstId && before.firstId !== undefined && before.height > 0) {
      el.scrollTop = before.top + (el.scrollHeight - before.height)
    } else if (lastKey !== before.lastKey && before.atBottom) {
      el.scrollTop = el.scrollHeight
    }
    scroll.current = {
      height: el.scrollHeight,
      top: el.scrollTop,
      firstId,
      lastKey,
      atBottom: el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD_PX,
    }
  })

  const onScroll = () => {
    const el = list.current
    if (!el) return
    scroll.current.top = el.scrollTop
    scroll.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD_PX
    if (el.scrollTop <= OLDER_THRESHOLD_PX) chat.loadOlder()
  }

  // What the user sees is read: the badge elsewhere clears.
  const latestSupport = latestOperatorMessageId(chat.messages)
  const { mutate: markReadUpTo } = markRead
  useEffect(() => {
    if (latestSupport <= readUpTo.current || document.visibilityState !== 'visible') return
    readUpTo.current = latestSupport
    markReadUpTo(latestSupport)
  }, [latestSupport, markReadUpTo])

  const submit = () => {
    if (!chat.send(text)) return
    setText('')
    scroll.current.atBottom = true
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter breaks the line; never while an input method is composing.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      submit()
    }
  }

  // The greeting opens the conversation: it stays at its top once messages follow it.
  const atStart = chat.loaded && chat.olderBeforeId === null
  const time = (m: ChatMessage) => formatDateTime(m.createdAt, lang)
  return (
    <div className="chat" data-testid="screen-chat">
      {chat.status !== 'online' && (
        <p className="chat__status" data-testid="chat-status" role="status">
          {t(`chat.status.${chat.status}`)}
        </p>
      )}
      <div className="chat__list" ref={list} onScroll={onScroll}>
        {chat.olderBeforeId !== null && (
          <button
            type="button"
            className="tint-button chat__older"
            onClick={chat.loadOlder}
            disabled={chat.loadingOlder}
            data-testid="chat-older"
          >
            {chat.loadingOlder ? t('chat.loadingOlder') : t('chat.older')}
          </button>
        )}
        {atStart && (
          <p className="chat__empty" data-testid="chat-empty">
            {t('chat.empty')}
          </p>
        )}
        <ul className="chat__messages">
          {chat.messages.map((m) => (
            <Bubble
              key={m.id}
              mine={m.sender === 'user'}
              body={m.body}
              time={time(m)}
              pending={false}
            />
          ))}
          {chat.pending.map((p: PendingMessage) => (
            <Bubble
              key={p.clientId}
              mine
              body={p.body}
              pending
              failed={p.failed}
              onRetry={() => chat.retry(p)}
            />
          ))}
        </ul>
      </div>
      <form
        className="chat__composer"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <textarea
          className="chat__input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          maxLength={CHAT_BODY_MAX}
          rows={1}
          enterKeyHint="send"
          data-testid="chat-input"
        />
        <button
          type="submit"
          className="chat__send"
          disabled={text.trim() === ''}
          data-testid="chat-send"
        >
          {t('chat.send')}
        </button>
      </form>
    </div>
  )
}

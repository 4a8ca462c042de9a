import type { ChatHistory, ChatMessage } from '@hope/api'
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react'
import { newIdempotencyKey } from '../../lib/api/idempotency-key.ts'
import { lanHeader } from '../../lib/i18n/lang.ts'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { fetchChatHistory } from './api/chat-history.ts'
import { sendChatMessage } from './api/send-chat-message.ts'
import { ChatConnection, type ChatStatus } from './chat-connection.ts'
import { chatSocketUrl, mergeMessages, settlePending, type PendingMessage } from './chat.rules.ts'

export interface ChatState {
  /** Stored messages, oldest first. */
  messages: ChatMessage[]
  /** The user's messages not confirmed yet, in the order written. */
  pending: PendingMessage[]
  status: ChatStatus
  /** The first page has answered (or failed). */
  loaded: boolean
  /** The cursor of the next older page; null when the start of the conversation is shown. */
  olderBeforeId: number | null
  loadingOlder: boolean
}

type Action =
  | { type: 'status'; status: ChatStatus }
  | { type: 'messages'; messages: ChatMessage[] }
  | { type: 'newest'; page: ChatHistory | null }
  | { type: 'olderLoading' }
  | { type: 'older'; page: ChatHistory | null }
  | { type: 'queued'; message: PendingMessage }
  | { type: 'refused'; clientId: string; msg: string }
  | { type: 'retry'; clientId: string }

const initialState: ChatState = {
  messages: [],
  pending: [],
  status: 'connecting',
  loaded: false,
  olderBeforeId: null,
  loadingOlder: false,
}

function withMessages(state: ChatState, incoming: ChatMessage[]): ChatState {
  const messages = mergeMessages(state.messages, incoming)
  const pending = settlePending(state.pending, incoming)
  return messages === state.messages && pending === state.pending
    ? state
    : { ...state, messages, pending }
}

export function chatReducer(state: ChatState, action: Action): ChatState {
  switch (action.type) {
    case 'status':
      return state.status === action.status ? state : { ...state, status: action.status }
    case 'messages':
      return withMessages(state, action.messages)
    case 'newest': {
      if (!action.page) return state.loaded ? state : { ...state, loaded: true }
      const next = withMessages(state, action.page.list)
      // The first page also tells whether there is anything older.
      return state.loaded
        ? next
        : { ...next, loaded: true, olderBeforeId: action.page.nextBeforeId }
    }
    case 'olderLoading':
      return { ...state, loadingOlder: true }
    case 'older':
      if (!action.page) return { ...state, loadingOlder: false }
      return {
        ...withMessages(state, action.page.list),
        olderBeforeId: action.page.nextBeforeId,
        loadingOlder: false,
      }
    case 'queued':
      return { ...state, pending: [...state.pending, action.message] }
    case 'refused':
      return {
        ...state,
        pending: state.pending.map((p) =>
          p.clientId === action.clientId ? { ...p, failed: action.msg } : p,
        ),
      }
    case 'retry':
      return {
        ...state,
        pending: state.pending.map((p) =>
          p.clientId === action.clientId ? { clientId: p.clientId, body: p.body } : p,
        ),
      }
  }
}

/**
 * The support conversation: history pages, live messages and the user's own messages from
 * written to stored. Sending never waits: a message shows at once as pending and is confirmed
 * by the server's ack (or the HTTP fallback), whichever connection is up.
 */
export function useChat() {
  const [state, dispatch] = useReducer(chatReducer, initialState)
  const token = useSession((s) => s.token)
  const connection = useRef<ChatConnection | null>(null)

  const loadNewest = useCallback(() => {
    fetchChatHistory()
      .then((page) => dispatch({ type: 'newest', page }))
      .catch(() => dispatch({ type: 'newest', page: null }))
  }, [])

  useEffect(() => {
    loadNewest()
    const c = new ChatConnection({
      url: chatSocketUrl(window.location),
      token: () => useSession.getState().token,
      lan: () => lanHeader(),
      onStatus: (status) => dispatch({ type: 'status', status }),
      // Messages written while the socket was away come with the newest page.
      onReady: () => loadNewest(),
      onMessage: (message) => dispatch({ type: 'messages', messages: [message] }),
      onRefused: (clientId, refusal) => {
        dispatch({ type: 'refused', clientId, msg: refusal.msg })
        if (refusal.msg) showToast(refusal.msg)
      },
      onSignedOut: () => useSession.getState().signOut(),
      sendHttp: sendChatMessage,
    })
    connection.current = c
    c.start()
    const wake = () => {
      if (document.visibilityState === 'visible') c.wake()
    }
    window.addEventListener('online', wake)
    document.addEventListener('visibilitychange', wake)
    return () => {
      window.removeEventListener('online', wake)
      document.removeEventListener('visibilitychange', wake)
      c.stop()
      connection.current = null
    }
  }, [token, loadNewest])

  const send = useCallback((text: string): boolean => {
    const body = text.trim()
    if (!body) return false
    const clientId = newIdempotencyKey()
    dispatch({ type: 'queued', message: { clientId, body } })
    connection.current?.send({ clientId, body })
    return true
  }, [])

  const retry = useCallback((message: PendingMessage) => {
    dispatch({ type: 'retry', clientId: message.clientId })
    connection.current?.send({ clientId: message.clientId, body: message.body })
  }, [])

  const { olderBeforeId, loadingOlder } = state
  const loadOlder = useCallback(() => {
    if (olderBeforeId === null || loadingOlder) return
    dispatch({ type: 'olderLoading' })
    fetchChatHistory(olderBeforeId)
      .then((page) => dispatch({ type: 'older', page }))
      .catch(() => dispatch({ type: 'older', page: null }))
  }, [olderBeforeId, loadingOlder])

  return useMemo(() => ({ ...state, send, retry, loadOlder }), [state, send, retry, loadOlder])
}

export { ChatPage } from './chat-page.tsx'
export { ContactPage } from './contact-page.tsx'
export { useChatUnread } from './api/chat-unread.ts'

export { ChatPage } from './chat-page.tsx'

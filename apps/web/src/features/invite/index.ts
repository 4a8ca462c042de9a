export { InvitePage } from './invite-page.tsx'

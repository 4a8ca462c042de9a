// The screen loads lazily with the router; the bell, which rides on the first screen, is
// imported from notice-bell.tsx directly, so that it does not bring the screen along.
export { NoticesPage } from './notices-page.tsx'

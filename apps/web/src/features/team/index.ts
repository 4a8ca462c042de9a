export { CommunityPage } from './community-page.tsx'
export { TeamPage } from './team-page.tsx'

export { RankingPage } from './ranking-page.tsx'

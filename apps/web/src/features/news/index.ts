export { NewsPage } from './news-page.tsx'

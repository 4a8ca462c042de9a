export { NewsDetailPage } from './news-detail-page.tsx'
export { NewsPage } from './news-page.tsx'

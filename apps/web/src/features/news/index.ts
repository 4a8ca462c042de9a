export { NewsDetailPage } from './news-detail-page.tsx'
export { NewsPage } from './news-page.tsx'
export {
  ArticleDetail,
  ArticleImage,
  ArticleItemText,
  ArticleList,
  type ArticleKind,
} from './articles.tsx'

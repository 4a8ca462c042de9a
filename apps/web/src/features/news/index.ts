export { NewsDetailPage } from './news-detail-page.tsx'
export { NewsPage } from './news-page.tsx'
export {
  ArticleItemText,
  ArticleList,
  ArticleScreen,
  useArticleId,
  type ArticleKind,
} from './articles.tsx'

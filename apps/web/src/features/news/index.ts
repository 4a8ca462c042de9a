export { NewsDetailPage } from './news-detail-page.tsx'
export { NewsPage } from './news-page.tsx'
export {
  ArticleImage,
  ArticleItemText,
  ArticleList,
  ArticleScreen,
  useArticleId,
  type ArticleKind,
} from './articles.tsx'

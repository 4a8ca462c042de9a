import { newsInfoOptions } from './api/news-info.ts'
import { ArticleDetail, ArticleImage } from './articles.tsx'
import './news.css'

/** `/news/:id`: one article, in the user's language or in Chinese when it has no version in it. */
export function NewsDetailPage() {
  return (
    <ArticleDetail
      kind="news"
      className="news-article"
      options={newsInfoOptions}
      picture={(item) =>
        item.image && (
          <ArticleImage className="news-article__image" src={item.image} width={750} height={422} />
        )
      }
    />
  )
}

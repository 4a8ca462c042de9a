import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const content = app.services.content
  defineRoute(app, 'main/bannnerInfo', ({ req }) => content.banners(req.lang))
  defineRoute(app, 'main/news', ({ req, params }) => content.news(req.lang, params))
  defineRoute(app, 'main/newInfo', ({ req, params }) => content.newsInfo(req.lang, params.id))
  defineRoute(app, 'main/school', ({ req, params }) => content.school(req.lang, params))
  defineRoute(app, 'main/schoolInfo', ({ req, params }) => content.schoolInfo(req.lang, params.id))

  defineRoute(app, 'admin/banners', () => content.adminBanners())
  defineRoute(app, 'admin/saveBanner', ({ operator, params }) =>
    content.saveBanner(operator!.id, params),
  )
  defineRoute(app, 'admin/deleteBanner', ({ operator, params }) =>
    content.deleteBanner(operator!.id, params.id),
  )
  defineRoute(app, 'admin/newsList', ({ params }) => content.adminNews(params))
  defineRoute(app, 'admin/saveNews', ({ operator, params }) =>
    content.saveNews(operator!.id, params),
  )
  defineRoute(app, 'admin/deleteNews', ({ operator, params }) =>
    content.deleteNews(operator!.id, params.id),
  )
  defineRoute(app, 'admin/schoolList', ({ params }) => content.adminSchool(params))
  defineRoute(app, 'admin/saveSchool', ({ operator, params }) =>
    content.saveSchool(operator!.id, params),
  )
  defineRoute(app, 'admin/deleteSchool', ({ operator, params }) =>
    content.deleteSchool(operator!.id, params.id),
  )
  defineRoute(app, 'admin/deleteTranslation', ({ operator, params }) =>
    content.deleteTranslation(operator!.id, params),
  )
}

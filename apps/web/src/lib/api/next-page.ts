/**
 * The page after `page` of a paged list (`pageNum` from 1), or undefined after the last: the
 * `getNextPageParam` of every paged query.
 */
export function nextPageNum(page: {
  pageNum: number
  pageSize: number
  total: number
}): number | undefined {
  return page.pageNum * page.pageSize < page.total ? page.pageNum + 1 : undefined
}

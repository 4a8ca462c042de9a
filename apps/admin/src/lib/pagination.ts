import type { Page } from '@hope/api'
import type { TablePaginationConfig } from 'antd'
import { useState } from 'react'

export const DEFAULT_PAGE_SIZE = 20

/** Which page of a server list to read, and how long a page is. */
export interface PageRequest {
  pageNum: number
  pageSize: number
}

/** An antd table's pagination for a server page; `onChange` asks for another page or size. */
export function pagination(
  page: Page<unknown> | undefined,
  current: PageRequest,
  onChange: (pageNum: number, pageSize: number) => void,
): TablePaginationConfig {
  return {
    current: current.pageNum,
    pageSize: current.pageSize,
    total: page?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    onChange,
  }
}

/**
 * A paged list's request, from page 1: `refine` changes its filters and goes back to page 1,
 * `pagination` is the table's pagination for the page the server sent.
 * @example const { search, refine, pagination } = usePagedSearch<UserSearch>({ q: '' })
 */
export function usePagedSearch<S extends PageRequest>(
  filters: Omit<S, keyof PageRequest>,
  pageSize = DEFAULT_PAGE_SIZE,
) {
  const [search, setSearch] = useState<S>(() => ({ ...filters, pageNum: 1, pageSize }) as S)
  return {
    search,
    refine: (patch: Partial<Omit<S, keyof PageRequest>>) =>
      setSearch((s) => ({ ...s, ...patch, pageNum: 1 })),
    pagination: (page: Page<unknown> | undefined) =>
      pagination(page, search, (pageNum, pageSize) =>
        setSearch((s) => ({ ...s, pageNum, pageSize })),
      ),
  }
}

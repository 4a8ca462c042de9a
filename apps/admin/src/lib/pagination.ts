import type { Page } from '@hope/api'
import type { TablePaginationConfig } from 'antd'

export const DEFAULT_PAGE_SIZE = 20

/** An antd table's pagination for a server page; `onChange` asks for another page or size. */
export function pagination(
  page: Page<unknown> | undefined,
  current: { pageNum: number; pageSize: number },
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

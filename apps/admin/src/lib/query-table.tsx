import type { Page } from '@hope/api'
import { Table, type TablePaginationConfig, type TableProps } from 'antd'
import { LoadError } from './load-error.tsx'

/** What a list's table needs to know of the query that reads it. */
export interface ListQuery {
  isError: boolean
  error: unknown
  isFetching: boolean
  refetch: () => Promise<unknown>
}

/**
 * A console list: the query's load error with a retry, then its table (rows keyed by id,
 * scrolling sideways, loading while the query reads); any table prop can be given as well.
 */
export function QueryTable<T extends object>({
  query,
  ...table
}: TableProps<T> & { query: ListQuery }) {
  return (
    <>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<T>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={query.isFetching}
        {...table}
      />
    </>
  )
}

/**
 * A console list of one server page: its rows in a QueryTable, with the pager `pagination` makes
 * for that page (as usePagedSearch gives it).
 */
export function PageTable<T extends object>({
  query,
  pagination,
  ...table
}: Omit<TableProps<T>, 'dataSource' | 'pagination'> & {
  query: ListQuery & { data?: Page<T> | undefined }
  pagination: (page: Page<unknown> | undefined) => TablePaginationConfig
}) {
  return (
    <QueryTable<T>
      query={query}
      dataSource={query.data?.list ?? []}
      pagination={pagination(query.data)}
      {...table}
    />
  )
}

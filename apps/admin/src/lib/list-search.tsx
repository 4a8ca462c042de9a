import { Input } from 'antd'
import type { ComponentProps } from 'react'

/**
 * A list's search box, as wide as `maxWidth` at most: what is typed, trimmed, is searched on
 * Enter or the button; clearing it searches for everything again.
 */
export function ListSearch({
  maxWidth,
  testId,
  onSearch,
  ...props
}: Omit<ComponentProps<typeof Input.Search>, 'onSearch'> & {
  maxWidth: number
  testId: string
  onSearch: (text: string) => void
}) {
  return (
    <Input.Search
      allowClear
      enterButton
      style={{ maxWidth }}
      data-testid={testId}
      onSearch={(text) => onSearch(text.trim())}
      {...props}
    />
  )
}

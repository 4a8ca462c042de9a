import { Typography } from 'antd'
import { shorten } from './format.ts'

/** An address or hash in a table cell: shortened, monospaced, copying the whole; '-' for none. */
export function CopyableCode({
  value,
  head,
  tail,
}: {
  value: string | null
  head?: number
  tail?: number
}) {
  if (!value) return '-'
  return (
    <Typography.Text className="admin-mono" copyable={{ text: value }}>
      {shorten(value, head, tail)}
    </Typography.Text>
  )
}

import Skeleton from 'antd-mobile/es/components/skeleton'

export function NewsSkeleton() {
  return <Skeleton.Paragraph lineCount={3} animated />
}

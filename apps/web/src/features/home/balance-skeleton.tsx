import Skeleton from 'antd-mobile/es/components/skeleton'

export function BalanceSkeleton() {
  return (
    <div className="home-balance__body" aria-busy="true">
      <Skeleton.Paragraph lineCount={2} animated />
    </div>
  )
}

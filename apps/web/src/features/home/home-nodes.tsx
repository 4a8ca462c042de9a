// The nodes a user holds, beside the level on home. Loaded only for a user who holds one: most
// do not, and the first screen stays as small as it was.
import { NODE_TYPES } from '@hope/api'
import { use } from 'react'
import { useTranslation } from 'react-i18next'
import { loadNamespace } from '../../lib/i18n/i18n.ts'

const texts = loadNamespace('holder')

export default function HomeNodes({ types }: { types: number[] }) {
  use(texts)
  const { t } = useTranslation('holder')
  return types.map((type) => {
    const name = NODE_TYPES[type - 1]
    return name ? (
      <span key={type} className="user-level user-level--node" data-testid="user-node">
        {t(`nodeTypes.${name}`)}
      </span>
    ) : null
  })
}

import type { StakePosition } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { useAmounts } from '../../lib/money-flow/money-flow.tsx'
import { RecordHead } from '../../lib/ui/status-tag.tsx'
import { percentOf, POSITION_TONES, usdtUnits } from './stake.rules.ts'
import { Facts, ProgressBar } from '../../lib/ui/figures.tsx'

/**
 * One consensus position: what was paid, the HOPE it bought, what it has released against its
 * cap, and whether it is out. Test ids stake-position (-principal, -status, -hope, -price,
 * -released).
 */
export function PositionRow({ position }: { position: StakePosition }) {
  const { t } = useTranslation(['game', 'translation'])
  const { lang, usdt, hope } = useAmounts()
  const released = percentOf(usdtUnits(position.released), usdtUnits(position.cap))
  return (
    <li className="record" data-testid="stake-position">
      <RecordHead
        amount={usdt(position.principal)}
        amountTestId="stake-position-principal"
        tone={POSITION_TONES[position.status]}
        statusTestId="stake-position-status"
      >
        {t(`positions.status.${position.status}`)}
      </RecordHead>
      <Facts
        className="record__rows"
        facts={[
          [t('positions.hope'), hope(position.hope), 'stake-position-hope'],
          [t('positions.price'), usdt(position.price), 'stake-position-price'],
          [
            t('positions.released'),
            <>
              {formatMoney(position.released, lang)} / {usdt(position.cap)}
            </>,
            'stake-position-released',
          ],
        ]}
      />
      <ProgressBar percent={released} />
      <p className="record__date">{formatDateTime(position.createdAt, lang)}</p>
    </li>
  )
}

// The pieces of the activation form: the member's address (typed or picked from the direct
// members), the level and the partition.
import { type DirectMember, type Page } from '@hope/api'
import { type InfiniteData, type UseInfiniteQueryResult } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { mask } from '../../lib/format/mask.ts'
import { type AddressProblem } from '../../lib/money-flow/check-address.ts'
import { SheetFrame, useAmounts } from '../../lib/money-flow/money-flow.tsx'
import {
  levelName,
  LOCATION_CODES,
  PARTITIONS,
  type LevelOption,
  type Location,
} from './holder.rules.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'

export type MembersQuery = UseInfiniteQueryResult<InfiniteData<Page<DirectMember>>>

/** The translated names of a level and of a partition (or "keep the current one"). */
export function useNames() {
  const { t } = useTranslation(['holder', 'translation', 'invite'])
  return {
    level: (level: number) => t(`translation:levels.${levelName(level)}`),
    partition: (location: Location | null) =>
      location === null
        ? t('active.keepPartition')
        : t(`invite:partitions.${PARTITIONS[location]}`),
  }
}

/** The direct members to pick from, page by page. */
export function MemberPicker({
  open,
  query,
  members,
  onPick,
  onClose,
}: {
  open: boolean
  query: MembersQuery
  members: DirectMember[]
  onPick: (member: DirectMember) => void
  onClose: () => void
}) {
  const { t } = useTranslation(['holder', 'translation'])
  const names = useNames()
  return (
    <SheetFrame open={open} className="active-picker" onClose={onClose}>
      {open && (
        <div data-testid="active-picker-sheet">
          <h2 className="money-sheet__title">{t('active.pickTitle')}</h2>
          {query.isPending ? (
            <div aria-busy="true" data-testid="active-members-skeleton">
              <Skeleton.Paragraph lineCount={4} animated />
            </div>
          ) : query.isError && members.length === 0 ? (
            <RetryButton
              className="records-empty records-retry money-retry"
              onClick={() => void query.refetch()}
              data-testid="active-members-retry"
            />
          ) : members.length === 0 ? (
            <p className="active-picker__empty" data-testid="active-members-empty">
              {t('active.membersEmpty')}
            </p>
          ) : (
            <ul className="active-picker__list">
              {members.map((member) => (
                <li key={member.userName}>
                  <button
                    type="button"
                    className="active-option"
                    onClick={() => onPick(member)}
                    data-testid="active-member-option"
                  >
                    <span className="active-option__address">{mask(member.userName)}</span>
                    <span className="active-option__level">{names.level(member.level)}</span>
                    <span className="active-option__partition">
                      {names.partition(member.location)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {query.hasNextPage && (
            <Button
              block
              fill="none"
              loading={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
              data-testid="active-members-more"
            >
              {t('active.more')}
            </Button>
          )}
        </div>
      )}
    </SheetFrame>
  )
}

/** The member, the level and the partition on the shared flow: checks, sheet, result. */
/** The member's address, typed or picked, with what is known of it. */
export function AddressField({
  address,
  problem,
  member,
  onChange,
  onPick,
}: {
  address: string
  /** What is wrong with the address, once it is said (not while it is checked). */
  problem: AddressProblem | null
  member: DirectMember | undefined
  onChange: (address: string) => void
  onPick: () => void
}) {
  const { t } = useTranslation(['holder', 'money'])
  const names = useNames()
  return (
    <label className="money-field">
      <span className="money-label">{t('active.address')}</span>
      <span className={`money-input${problem ? ' money-input--bad' : ''}`}>
        <input
          value={address}
          onChange={(event) => onChange(event.target.value.trim())}
          placeholder={t('active.addressHint')}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={64}
          aria-invalid={problem !== null}
          data-testid="active-address"
        />
        <button
          type="button"
          className="tint-button money-input__action"
          onClick={onPick}
          data-testid="active-member-picker"
        >
          {t('active.pick')}
        </button>
      </span>
      {problem ? (
        <span className="money-field__problem" role="alert" data-testid="active-address-problem">
          {t(`money:flow.address.${problem}`)}
        </span>
      ) : member ? (
        <span className="money-field__hint active-member" data-testid="active-member">
          <span data-testid="active-member-level">
            {t('active.currentLevel', { level: names.level(member.level) })}
          </span>
          <span data-testid="active-member-partition">
            {t('active.currentPartition', { partition: names.partition(member.location) })}
          </span>
        </span>
      ) : (
        address && (
          <span className="money-field__hint" data-testid="active-unknown-member">
            {t('active.unknownMember')}
          </span>
        )
      )}
    </label>
  )
}

/** The levels to pay for, each with what it costs the member (only the difference). */
export function LevelChoices({
  options,
  level,
  member,
  onChoose,
}: {
  options: LevelOption[]
  level: number | null
  member: DirectMember | undefined
  onChoose: (level: number) => void
}) {
  const { t } = useTranslation('holder')
  const { usdt } = useAmounts()
  const names = useNames()
  return (
    <div className="money-field">
      <span className="money-label">{t('active.level')}</span>
      <div className="active-levels" role="group" aria-label={t('active.level')}>
        {options.map((option) => (
          <button
            key={option.level}
            type="button"
            className="choice active-choice"
            disabled={!option.selectable}
            aria-pressed={level === option.level}
            data-selected={level === option.level}
            onClick={() => onChoose(option.level)}
            data-testid={`active-level-${option.level}`}
          >
            <span className="active-choice__name">{names.level(option.level)}</span>
            <span className="active-choice__price" data-testid="active-level-price">
              {option.cost === null
                ? t('active.levelReached')
                : member
                  ? usdt(option.cost)
                  : t('active.upTo', { amount: usdt(option.cost) })}
            </span>
          </button>
        ))}
      </div>
      {member && options.every((o) => !o.selectable) && (
        <span className="money-field__hint" data-testid="active-top-level">
          {t('active.topLevel')}
        </span>
      )}
    </div>
  )
}

/** The partition to place the member in; a member already placed keeps theirs. */
export function PartitionChoices({
  location,
  locked,
  onChoose,
}: {
  location: Location | null
  /** The member's partition when it can no longer change, else null. */
  locked: Location | null
  onChoose: (location: Location | null) => void
}) {
  const { t } = useTranslation('holder')
  const names = useNames()
  return (
    <div className="money-field">
      <span className="money-label">{t('active.partition')}</span>
      <div className="active-partitions" role="group" aria-label={t('active.partition')}>
        {LOCATION_CODES.map((code) => (
          <button
            key={code}
            type="button"
            className="choice active-choice"
            disabled={locked !== null && locked !== code}
            aria-pressed={location === code}
            data-selected={location === code}
            onClick={() => onChoose(location === code ? null : code)}
            data-testid={`active-partition-${code}`}
          >
            {names.partition(code)}
          </button>
        ))}
      </div>
      <span
        className="money-field__hint"
        data-testid={locked !== null ? 'active-partition-locked' : undefined}
      >
        {locked !== null ? t('active.partitionLocked') : t('active.partitionNote')}
      </span>
    </div>
  )
}

import './pill-tabs.css'

/**
 * A row of pill tabs, one selected: by default under the back bar (sticky); a screen may name
 * the row (`label`) and give it and its tabs its own classes (`onClassName` added to the
 * selected tab's). Test ids `<testId>-<key>`.
 */
export function PillTabs<Key extends string>({
  tabs,
  selected,
  onSelect,
  testId,
  label,
  className = 'pill-tabs',
  tabClassName = 'pill-tab',
  onClassName,
}: {
  tabs: readonly { key: Key; label: string }[]
  selected: Key
  onSelect: (key: Key) => void
  testId: string
  label?: string
  className?: string
  tabClassName?: string
  onClassName?: string
}) {
  const on = onClassName
    ? `${tabClassName} pill pill--on ${onClassName}`
    : `${tabClassName} pill pill--on`
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === selected}
          className={tab.key === selected ? on : `${tabClassName} pill`}
          onClick={() => onSelect(tab.key)}
          data-testid={`${testId}-${tab.key}`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

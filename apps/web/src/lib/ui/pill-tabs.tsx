import './pill-tabs.css'

/**
 * A row of pill tabs under the back bar (sticky), one selected. Test ids `<testId>-<key>`.
 */
export function PillTabs<Key extends string>({
  tabs,
  selected,
  onSelect,
  testId,
}: {
  tabs: readonly { key: Key; label: string }[]
  selected: Key
  onSelect: (key: Key) => void
  testId: string
}) {
  return (
    <div className="pill-tabs" role="tablist">
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === selected}
          className={tab.key === selected ? 'pill-tab pill pill--on' : 'pill-tab pill'}
          onClick={() => onSelect(tab.key)}
          data-testid={`${testId}-${tab.key}`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

// The address field of a payment to a wallet address.
import type { Ref } from 'react'
import { useFlowPlace } from './flow-context.ts'

/**
 * The address field of a form on the shared flow: the text as typed less spaces (every change
 * a new request), an action in the field (paste, own wallet) and a hint below; test id
 * `<testId>-address-input` with the flow's test id.
 */
export function AddressInput({
  label,
  placeholder,
  value,
  onChange,
  inputRef,
  className,
  action,
  hint,
}: {
  label: string
  placeholder: string
  value: string
  /** The new address, applied as an edit of the flow. */
  onChange: (address: string) => void
  inputRef?: Ref<HTMLInputElement>
  className?: string
  action?: { label: string; testId: string; onClick: () => void } | null
  hint?: string | null
}) {
  const flow = useFlowPlace()
  return (
    <label className="money-field">
      <span className="money-label">{label}</span>
      <span className="money-input">
        <input
          ref={inputRef}
          value={value}
          onChange={(event) => flow.edit(() => onChange(event.target.value.trim()))}
          placeholder={placeholder}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={64}
          className={className}
          data-testid={`${flow.testId}-address-input`}
        />
        {action && (
          <button
            type="button"
            className="tint-button money-input__action"
            onClick={action.onClick}
            data-testid={action.testId}
          >
            {action.label}
          </button>
        )}
      </span>
      {hint && <span className="money-field__hint">{hint}</span>}
    </label>
  )
}

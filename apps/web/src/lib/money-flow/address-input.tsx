// The address field of a payment to a wallet address.
import type { Ref } from 'react'

/**
 * An address field: the text as typed less spaces, an action in the field (paste, own wallet)
 * and a hint below; test id `<testId>-address-input`.
 */
export function AddressInput({
  testId,
  label,
  placeholder,
  value,
  onChange,
  inputRef,
  className,
  action,
  hint,
}: {
  testId: string
  label: string
  placeholder: string
  value: string
  onChange: (address: string) => void
  inputRef?: Ref<HTMLInputElement>
  className?: string
  action?: { label: string; testId: string; onClick: () => void } | null
  hint?: string | null
}) {
  return (
    <label className="money-field">
      <span className="money-label">{label}</span>
      <span className="money-input">
        <input
          ref={inputRef}
          value={value}
          onChange={(event) => onChange(event.target.value.trim())}
          placeholder={placeholder}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={64}
          className={className}
          data-testid={`${testId}-address-input`}
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

import type { ButtonHTMLAttributes } from 'react'
import { useNavigate, type To } from 'react-router'

interface NavButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'onClick'> {
  /** The screen a tap opens. */
  to: To
}

/** A plain button that opens another screen. */
export function NavButton({ to, children, ...props }: NavButtonProps) {
  const navigate = useNavigate()
  return (
    <button type="button" {...props} onClick={() => void navigate(to)}>
      {children}
    </button>
  )
}

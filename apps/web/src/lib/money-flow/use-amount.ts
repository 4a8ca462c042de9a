import { normalizeLang, type Lang } from '@hope/api'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { readAmount, writeAmount, type AmountProblem } from './amount.ts'

/** An amount field's text and how it reads in the user's language. */
export interface AmountText {
  text: string
  lang: Lang
  decimals: number
  /** Why the text is not an amount; zero is left to the screen's rules unless refused here. */
  problem: AmountProblem | null
  /** The amount in minor units: null when empty or refused, 0n for zero. */
  units: bigint | null
  set: (text: string) => void
}

/**
 * The text of an amount field as typed. Zero is the screen's rules' to say (the spec words it),
 * or, with `refuseZero`, the field's.
 */
export function useAmountText(decimals: number, { refuseZero = false } = {}): AmountText {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  const [text, set] = useState('')
  const read = readAmount(text, decimals, lang)
  const zero = !refuseZero && 'problem' in read && read.problem === 'zero'
  return {
    text,
    lang,
    decimals,
    problem: 'problem' in read && !zero ? read.problem : null,
    units: 'units' in read ? read.units : zero ? 0n : null,
    set,
  }
}

/** The text the "all"/"max" button puts in the field, read back to the same units. */
export const amountText = (amount: AmountText, units: bigint): string =>
  writeAmount(units, amount.decimals, amount.lang)

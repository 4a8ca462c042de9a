import type { Lang, SecurityNotice } from '@hope/api'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { mask } from '../../lib/format/mask.ts'

const MISSING = '--'

/**
 * What a notice's sentence interpolates, written for the language: amounts grouped as it
 * groups them, addresses masked 6+6, times in the user's zone. A field the notice lacks shows
 * as a dash rather than as a blank in the middle of a sentence.
 * @example noticeValues({ amount: '1234.500000', address: '0x7099…79c8' }, 'en')
 * // { amount: '1,234.5', address: '0x7099******dc79c8', … }
 */
export function noticeValues(detail: SecurityNotice['detail'], lang: Lang) {
  const money = (value: string | undefined) => (value ? formatMoney(value, lang) : MISSING)
  return {
    device: detail.device || MISSING,
    ip: detail.ip || MISSING,
    address: detail.address ? mask(detail.address) : MISSING,
    amount: money(detail.amount),
    left: money(detail.left),
    time: detail.holdUntil ? formatDateTime(detail.holdUntil, lang) : MISSING,
  }
}

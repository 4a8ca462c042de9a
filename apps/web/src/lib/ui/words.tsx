import { Fragment } from 'react'

/** Where a text may break between words it writes without spaces (Thai): U+200B in the texts. */
const BREAK = '\u200b'

/**
 * A short label (a grid entry) that breaks only where its text allows: Chromium breaks Thai by
 * a dictionary that splits loanwords (ประวัติกา|รสเตก), and word-break: keep-all does not apply
 * to Thai, so each word the text marks is kept whole. Text without marks is left to the browser.
 * @example <Words text={'ประวัติ\u200bการสเตก'} />
 */
export function Words({ text }: { text: string }) {
  if (!text.includes(BREAK)) return text
  return text.split(BREAK).map((word, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      <span className="word">{word}</span>
    </Fragment>
  ))
}

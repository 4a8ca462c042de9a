import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'))

/**
 * One namespace of the app's texts in a language (`zhcn`, `en`, `ko`, …), as the screens show
 * them; a journey finds what it clicks and reads by these words. The type says the part a
 * journey reads.
 */
export const appTexts = <T = Record<string, Record<string, unknown>>>(lang: string, ns: string) =>
  readJson(path.join(ROOT, 'apps/web/src/locales', lang, `${ns}.json`)) as T

/** The console's texts in a language (`zh`, `en`). */
export const consoleTexts = <T>(lang: string) =>
  readJson(path.join(ROOT, 'apps/admin/src/locales', `${lang}.json`)) as T

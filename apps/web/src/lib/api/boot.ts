import { SHELL_BOOT_ELEMENT_ID, type ShellBoot } from '@hope/api'

let read: Partial<ShellBoot> | null = null

/**
 * The boot data of the shell the server sent (see `ShellBoot`), read once; empty when the page
 * has none (a dev server sends none) or it does not parse.
 */
export function bootData(doc: Document = document): Partial<ShellBoot> {
  if (read) return read
  const text = doc.getElementById(SHELL_BOOT_ELEMENT_ID)?.textContent
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = null
  }
  read = parsed && typeof parsed === 'object' ? (parsed as Partial<ShellBoot>) : {}
  return read
}

/** Forgets what was read (tests, which change the document between cases). */
export function resetBootData(): void {
  read = null
}

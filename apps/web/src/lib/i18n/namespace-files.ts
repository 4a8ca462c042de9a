/** Every language's namespace files (all but translation.json), each loaded on demand. */
export const namespaceFiles = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/*.json',
  '!../../locales/*/translation.json',
])

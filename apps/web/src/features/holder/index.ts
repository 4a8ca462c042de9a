export { ActivePage } from './active-page.tsx'
export { HolderPage } from './holder-page.tsx'

export { AssetsPage } from './assets-page.tsx'

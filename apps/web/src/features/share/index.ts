export { SharePage } from './share-page.tsx'

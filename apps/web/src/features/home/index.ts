export { HomePage } from './home-page.tsx'
export { prefetchHomeReads } from './prefetch-home-reads.ts'

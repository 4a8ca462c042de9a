export { SplitPage } from './split-page.tsx'
export { VipPage } from './vip-page.tsx'

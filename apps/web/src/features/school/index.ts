export { SchoolDetailPage } from './school-detail-page.tsx'
export { SchoolPage } from './school-page.tsx'

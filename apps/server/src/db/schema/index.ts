export * from './users.ts'
export * from './news.ts'
export * from './content.ts'
export * from './settings.ts'

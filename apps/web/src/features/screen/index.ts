export { BlankScreen } from './blank-screen.tsx'

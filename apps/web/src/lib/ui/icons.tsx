import type { ReactElement, SVGProps } from 'react'

/** Line icons on a 24-unit grid, drawn in the current colour. */
const PATHS = {
  home: 'M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  assets: 'M3 7h18v12H3zM3 7l2-3h14l2 3M16 13h2',
  stake: 'M12 3v18M5 8l7-5 7 5M5 16l7 5 7-5M5 12h14',
  community:
    'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM16 11a3 3 0 1 0 0-6M2 20c0-3 3-5 6-5s6 2 6 5M16 15c3 0 6 2 6 5',
  vip: 'M3 7l4 10h10l4-10-5 4-4-6-4 6z',
  swap: 'M4 8h14l-3-3M20 16H6l3 3',
  withdraw: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  recharge: 'M12 4v12M7 11l5 5 5-5M4 20h16',
  transfer: 'M3 12h16M14 6l6 6-6 6',
  team: 'M12 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM5 20v-1a7 7 0 0 1 14 0v1M4 12a2 2 0 1 0 0-4M20 12a2 2 0 1 0 0-4',
  share:
    'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  news: 'M4 4h13v16H6a2 2 0 0 1-2-2zM17 8h3v10a2 2 0 0 1-2 2M8 8h5M8 12h5M8 16h3',
  record: 'M6 3h12v18H6zM9 8h6M9 12h6M9 16h4',
  holder: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4',
  active: 'M13 2 4 14h7l-1 8 9-12h-7z',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  wallet: 'M3 6h15a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H3zM3 6l12-3v3M16 13h1',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  chevron: 'M9 5l7 7-7 7',
  back: 'M15 5l-7 7 7 7',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  mall: 'M5 8h14l-1 12H6zM9 8V6a3 3 0 0 1 6 0v2',
  fighting:
    'M4 4l9 9M4 4h3l9 9M4 4v3l9 9M14 17l3-3M16 19l3-3M17 17l3 3M20 4l-6 6M20 4h-3M20 4v3M4 20l3-3',
  ranking:
    'M3 20h18M5 20v-6h4v6M10 20V9h4v11M15 20v-8h4v8M12 3l1 2 2 .3-1.5 1.4.4 2.1-1.9-1-1.9 1 .4-2.1L9 5.3 11 5z',
  quotes: 'M3 20h18M5 16l4-5 4 3 6-8M15 6h4v4',
  school: 'M2 9l10-5 10 5-10 5zM6 11v5c0 1.7 2.7 3 6 3s6-1.3 6-3v-5M22 9v6',
  play: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM10 8.5v7l5.5-3.5z',
  contact:
    'M4 13v-1a8 8 0 0 1 16 0v1M4 13h3v6H5a1 1 0 0 1-1-1zM20 13h-3v6h2a1 1 0 0 0 1-1zM17 19c0 1.5-2 2-5 2',
  chat: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
  sound: 'M3.5 9.5h3.5L12 5v14l-5-4.5H3.5zM15.5 9a4.5 4.5 0 0 1 0 6M18.5 6.5a8.5 8.5 0 0 1 0 11',
  bell: 'M6 9a6 6 0 0 1 12 0c0 6 2.5 8 2.5 8h-17S6 15 6 9zM10 20.5a2.2 2.2 0 0 0 4 0',
} as const

export type IconName = keyof typeof PATHS

export function Icon({
  name,
  ...props
}: { name: IconName } & SVGProps<SVGSVGElement>): ReactElement {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      <path d={PATHS[name]} />
    </svg>
  )
}

import type { UserInfo } from '@hope/api'

/** The picture's intrinsic size (square; CSS fits it to the disc): reserves its box before it loads. */
const AVATAR_PIXELS = 96

/** The user's image, or the first letter of their nickname (or address) on a coloured disc. */
export function UserAvatar({
  user,
  size = '3rem',
}: {
  user: Pick<UserInfo, 'image' | 'nickName' | 'userName'> | null
  size?: string
}) {
  const initial = (user?.nickName || user?.userName.replace(/^0x/i, '') || '?')
    .charAt(0)
    .toUpperCase()
  return (
    <span className="user-avatar" style={{ width: size, height: size }} aria-hidden="true">
      {user?.image ? (
        <img
          src={user.image}
          width={AVATAR_PIXELS}
          height={AVATAR_PIXELS}
          loading="lazy"
          decoding="async"
          alt=""
        />
      ) : (
        initial
      )}
    </span>
  )
}

import type { LoginResult, UserInfo } from '@hope/api'
import { create } from 'zustand'
import { DEFAULT_LOCATION } from '@hope/api'

import {
  PUSERNAME_STORAGE_KEY,
  SIGNED_OUT_STORAGE_KEY,
  TOKEN_ADDRESS_STORAGE_KEY,
  TOKEN_STORAGE_KEY,
} from './storage-keys.ts'

export {
  PUSERNAME_STORAGE_KEY,
  SIGNED_OUT_STORAGE_KEY,
  TOKEN_ADDRESS_STORAGE_KEY,
  TOKEN_STORAGE_KEY,
}

type Address = `0x${string}`

/**
 * The session state of spec §3. Its account balance list is the query cache's
 * `accountKeys.balance()` (lib/api/balance.ts): one copy, refreshed after every transfer.
 */
export interface SessionState {
  /** Lower-cased wallet address, null until the wallet answers. */
  address: Address | null
  /** The inviter's username from an invite link. */
  pusername: string | null
  /** Placement partition: 1 left, 2 central, 3 right. */
  location: number
  ethPrice: string
  hopePrice: string
  userInfo: UserInfo | null
  /** Session token, persisted to localStorage `token`. */
  token: string | null
  /**
   * Whether the token is known to be good in this page's life: true once `getUserInfo`
   * answered for it, or when it came from a login or registration just now.
   */
  tokenChecked: boolean
  /** The wallet address the token was issued to, as last confirmed; null when unknown. */
  tokenAddress: string | null
  /**
   * The user signed out (persisted until a sign-in succeeds): the guard shows the signed-out
   * screen and signs in only when the user asks, also after a reload.
   */
  signedOut: boolean
}

export interface SessionActions {
  setAddress(address: string | null): void
  setPusername(pusername: string): void
  /**
   * The server does not know the stored inviter: it leaves storage, so a later visit no longer
   * offers it; this visit keeps it to say so.
   */
  forgetPusername(pusername: string): void
  /** The user left the link that named a refused inviter: this visit stops offering it too. */
  dropPusername(pusername: string): void
  setLocation(location: number): void
  /** Confirms the stored token, with the user info it answered (null: server unreachable). */
  confirmToken(userInfo: UserInfo | null): void
  /** Stores the token and user info a login or registration answered with. */
  signIn(result: LoginResult): void
  /** Drops the token (and the user info it belonged to). */
  signOut(): void
  /** The user chose to sign out: drops the token and keeps the choice (see `signedOut`). */
  logOut(): void
  /** The wallet was closed: no address, no token, user info reset (isRobot cleared). */
  closeWallet(): void
  /** The prices the server answered; a price not (yet) answered keeps its value. */
  setPrices(prices: { ethPrice?: string | undefined; hopePrice?: string | undefined }): void
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch (error) {
    console.error(error)
  }
}

/** The state a fresh page starts from (token and pusername come back from localStorage). */
export function initialSession(): SessionState {
  return {
    address: null,
    pusername: readStorage(PUSERNAME_STORAGE_KEY),
    location: DEFAULT_LOCATION,
    ethPrice: '1',
    hopePrice: '1',
    userInfo: null,
    token: readStorage(TOKEN_STORAGE_KEY),
    tokenChecked: false,
    tokenAddress: readStorage(TOKEN_ADDRESS_STORAGE_KEY),
    signedOut: readStorage(SIGNED_OUT_STORAGE_KEY) !== null,
  }
}

export const useSession = create<SessionState & SessionActions>()((set) => ({
  ...initialSession(),
  setAddress: (address) => set({ address: address ? (address.toLowerCase() as Address) : null }),
  setPusername: (pusername) => {
    writeStorage(PUSERNAME_STORAGE_KEY, pusername)
    set({ pusername })
  },
  dropPusername: (pusername) => {
    if (readStorage(PUSERNAME_STORAGE_KEY) === pusername) writeStorage(PUSERNAME_STORAGE_KEY, null)
    set((s) => (s.pusername === pusername ? { pusername: null } : {}))
  },
  forgetPusername: (pusername) => {
    if (readStorage(PUSERNAME_STORAGE_KEY) === pusername) writeStorage(PUSERNAME_STORAGE_KEY, null)
  },
  setLocation: (location) => set({ location }),
  confirmToken: (userInfo) => {
    const tokenAddress = userInfo ? userInfo.userName.toLowerCase() : undefined
    if (tokenAddress) writeStorage(TOKEN_ADDRESS_STORAGE_KEY, tokenAddress)
    set((s) => ({
      userInfo: userInfo ?? s.userInfo,
      tokenChecked: true,
      tokenAddress: tokenAddress ?? s.tokenAddress,
    }))
  },
  signIn: ({ token, ...userInfo }) => {
    const tokenAddress = userInfo.userName.toLowerCase()
    writeStorage(TOKEN_STORAGE_KEY, token)
    writeStorage(TOKEN_ADDRESS_STORAGE_KEY, tokenAddress)
    writeStorage(SIGNED_OUT_STORAGE_KEY, null)
    set((s) => ({
      token,
      tokenChecked: true,
      tokenAddress,
      signedOut: false,
      userInfo: { ...s.userInfo, ...userInfo },
    }))
  },
  signOut: () => {
    writeStorage(TOKEN_STORAGE_KEY, null)
    writeStorage(TOKEN_ADDRESS_STORAGE_KEY, null)
    set({ token: null, tokenChecked: false, tokenAddress: null, userInfo: null })
  },
  logOut: () => {
    writeStorage(TOKEN_STORAGE_KEY, null)
    writeStorage(TOKEN_ADDRESS_STORAGE_KEY, null)
    writeStorage(SIGNED_OUT_STORAGE_KEY, '1')
    set({ token: null, tokenChecked: false, tokenAddress: null, userInfo: null, signedOut: true })
  },
  closeWallet: () => {
    writeStorage(TOKEN_STORAGE_KEY, null)
    writeStorage(TOKEN_ADDRESS_STORAGE_KEY, null)
    set({ address: null, token: null, tokenChecked: false, tokenAddress: null, userInfo: null })
  },
  setPrices: ({ ethPrice, hopePrice }) =>
    set((s) => ({ ethPrice: ethPrice ?? s.ethPrice, hopePrice: hopePrice ?? s.hopePrice })),
}))

/** A token this page has confirmed: the guard lets the screens render. */
export const selectSignedIn = (s: SessionState): boolean => s.token !== null && s.tokenChecked

/**
 * A stored token not yet confirmed in this page's life, issued to the wallet's current address
 * (spec §6: the guard treats a user with a token as logged in). The guard shows the screens
 * while `getUserInfo` confirms it; a refused token is dropped and the login steps follow.
 */
export const selectTokenForWallet = (s: SessionState): boolean =>
  s.token !== null && !s.tokenChecked && s.address !== null && s.tokenAddress === s.address

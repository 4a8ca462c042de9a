// The localStorage keys of the session, on their own: the page's inline start-up script
// (early-reads.ts, built into the shell) reads the token before any module has loaded.
export const TOKEN_STORAGE_KEY = 'token'
export const PUSERNAME_STORAGE_KEY = 'pusername'
/** The wallet address the stored token was issued to (lower case), kept beside it. */
export const TOKEN_ADDRESS_STORAGE_KEY = 'tokenAddress'
/** Set ('1') when the user signed out: the guard waits for them to ask before signing in. */
export const SIGNED_OUT_STORAGE_KEY = 'signedOut'

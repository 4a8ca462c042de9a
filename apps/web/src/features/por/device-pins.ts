// What this device remembers of the first proof it verified: the registry, the token, the
// registry's code and the contract reserves (the payout vault). The server's settings can change
// with one operator's click; these cannot, so a registry swapped behind the user's back fails
// loudly instead of passing against the new one.

/** The addresses and code hash a device pinned, per chain. */
export interface DevicePins {
  registry: string
  token: string
  codeHash: string
  /** The contract reserves (the payout vault), comma-joined, ascending. */
  vaults: string
  /** When it was pinned (ISO time). */
  pinnedAt: string
}

type PinStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export const pinsKey = (chainId: number) => `porPins:${chainId}`

export function loadPins(storage: PinStorage, chainId: number): DevicePins | null {
  try {
    const raw = storage.getItem(pinsKey(chainId))
    if (!raw) return null
    const value = JSON.parse(raw) as Partial<DevicePins>
    return typeof value.registry === 'string' &&
      typeof value.token === 'string' &&
      typeof value.codeHash === 'string' &&
      typeof value.vaults === 'string'
      ? (value as DevicePins)
      : null
  } catch {
    return null
  }
}

export function savePins(storage: PinStorage, chainId: number, pins: DevicePins): void {
  storage.setItem(pinsKey(chainId), JSON.stringify(pins))
}

/** Forgets the pins of a chain: the next check that holds pins the addresses it sees. */
export function forgetPins(storage: PinStorage, chainId: number): void {
  storage.removeItem(pinsKey(chainId))
}

/** Which pinned fields differ from what the server and the chain name now. */
export function changedPins(
  stored: DevicePins,
  now: Omit<DevicePins, 'pinnedAt'>,
): (keyof Omit<DevicePins, 'pinnedAt'>)[] {
  return (['registry', 'token', 'codeHash', 'vaults'] as const).filter(
    (key) => stored[key].toLowerCase() !== now[key].toLowerCase(),
  )
}

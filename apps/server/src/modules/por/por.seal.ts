// A snapshot's tree secret (from which every salt is derived) is sealed (AES-256-GCM) with a key
// kept outside the database, so the database alone reveals no user's salts, with which the
// balances of others on their paths could be narrowed down. The key is POR_SEAL_KEY (32 bytes as
// 64 hex digits or base64) or the file `por-seal.key` beside the operator key under DATA_DIR,
// made on first use. A sealed secret is bound to its snapshot, so one copied to another snapshot
// does not open; so is each proof stored whole by snapshots taken before (bound to its address).
import type { Config } from '../../config.ts'
import { loadKeyFile, openSecret, sealSecret } from '../../lib/seal.ts'

export const SEAL_KEY_FILE = 'por-seal.key'

/** How a sealed proof is stored in `por_proofs.proof` (jsonb). */
export interface SealedProof {
  sealed: string
}

const boundTo = (snapshotId: number, address: string) =>
  `por:${snapshotId}:${address.toLowerCase()}`

export function sealProof(key: Buffer, snapshotId: number, address: string, proof: string): string {
  const sealed: SealedProof = {
    sealed: sealSecret(key, boundTo(snapshotId, address), Buffer.from(proof, 'utf8')),
  }
  return JSON.stringify(sealed)
}

/**
 * The stored proof opened; a proof stored before sealing (plain JSON) as it is. Throws when it
 * was sealed with another key, for another row, or altered.
 */
export function openProof(
  key: Buffer,
  snapshotId: number,
  address: string,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof stored.sealed !== 'string') return stored
  const opened = openSecret(key, boundTo(snapshotId, address), stored.sealed)
  if (!opened)
    throw new Error(
      `the proof of ${address} in snapshot ${snapshotId} does not open with this POR_SEAL_KEY`,
    )
  return JSON.parse(opened.toString('utf8')) as Record<string, unknown>
}

const secretBoundTo = (snapshotId: number) => `por-tree:${snapshotId}`

/** A snapshot's tree secret, sealed for its row. */
export function sealTreeSecret(key: Buffer, snapshotId: number, secret: Uint8Array): string {
  return sealSecret(key, secretBoundTo(snapshotId), Buffer.from(secret))
}

/** The snapshot's tree secret; throws when sealed with another key, for another snapshot or altered. */
export function openTreeSecret(key: Buffer, snapshotId: number, sealed: string): Uint8Array {
  const opened = openSecret(key, secretBoundTo(snapshotId), sealed)
  if (!opened)
    throw new Error(
      `the tree secret of snapshot ${snapshotId} does not open with this POR_SEAL_KEY`,
    )
  return new Uint8Array(opened)
}

/** The seal key, read once: POR_SEAL_KEY, else DATA_DIR/por-seal.key (made on first use). */
export function sealKeyLoader(
  config: Pick<Config, 'dataDir'> & { porSealKey?: string | undefined },
) {
  let key: Buffer | null = null
  return () =>
    (key ??= loadKeyFile({
      value: config.porSealKey,
      variable: 'POR_SEAL_KEY',
      dataDir: config.dataDir,
      file: SEAL_KEY_FILE,
    }))
}

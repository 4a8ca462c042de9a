import { loadKeyFile } from '../../lib/seal.ts'

/**
 * Operators' authenticator secrets are stored sealed (`lib/seal.ts`, the operator's username as
 * associated data, so a sealed secret copied to another row does not open). The key is
 * `OPERATOR_SECRET_KEY` (32 bytes as 64 hex digits or base64) or, when that is not set, the file
 * `operator-secret.key` under DATA_DIR, written on first use; a lost key means re-enrolling.
 */
export const KEY_FILE = 'operator-secret.key'

/** The configured key, or the key file under `dataDir`, created (mode 600) when missing. */
export function loadSecretKey(config: {
  operatorSecretKey: string | undefined
  dataDir: string
}): Buffer {
  return loadKeyFile({
    value: config.operatorSecretKey,
    variable: 'OPERATOR_SECRET_KEY',
    dataDir: config.dataDir,
    file: KEY_FILE,
  })
}

/** A loader that reads the key once, when an operator is first created or signs in. */
export function secretKeyLoader(config: Parameters<typeof loadSecretKey>[0]): () => Buffer {
  let key: Buffer | null = null
  return () => (key ??= loadSecretKey(config))
}

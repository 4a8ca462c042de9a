/** A fresh idempotency key or chat client id (32 hex characters, within 8–64 [A-Za-z0-9_-]). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

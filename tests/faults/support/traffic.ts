import { formatAmount, type TransferResult } from '@hope/api'
import { randomInt } from 'node:crypto'
import { call, newKey, type Answer, type User } from './api.ts'
import type { HopeServer } from './server.ts'

export interface Sample {
  /** when the request was sent, ms since the traffic began */
  at: number
  path: string
  status: number
  code: number | undefined
  reason: string | undefined
  msg: string | undefined
  error: string | undefined
  ms: number
}

export interface PlannedTransfer {
  from: number
  to: number
  units: bigint
  key: string
}

/** Sends planned transfer `t` between members of `users`, with its key. */
export function sendPlanned(
  server: HopeServer,
  users: readonly User[],
  t: PlannedTransfer,
  opts: { lan?: string; timeoutMs?: number } = {},
): Promise<Answer<TransferResult>> {
  return call<TransferResult>(
    server.baseUrl,
    'userAccount/transfer',
    {
      address: users[t.to]!.account.address,
      amount: formatAmount(t.units, 6),
      idempotencyKey: t.key,
    },
    { token: users[t.from]!.token, ...opts },
  )
}

/**
 * `count` transfers of 1 to 5 USDT down a line of `members` members, each from a member to a
 * later one.
 */
export function planStorm(count: number, members: number): PlannedTransfer[] {
  return Array.from({ length: count }, () => {
    const from = randomInt(0, members - 1)
    const to = randomInt(from + 1, members)
    const units = 1_000_000n + BigInt(randomInt(0, 4_000_000))
    return { from, to, units, key: newKey('storm') }
  })
}

/**
 * Steady user traffic over a line of members (each later member is in the downline of each
 * earlier one): balance reads and small transfers down the line, each with its own key, by
 * `clients` concurrent clients in language `lan`, until stopped.
 */
export class Traffic {
  readonly samples: Sample[] = []
  /** Every transfer sent, answered or not: retried with its key to settle the totals. */
  readonly transfers: PlannedTransfer[] = []
  private stopped = false
  private workers: Promise<void>[] = []
  private readonly began = Date.now()

  private readonly server: HopeServer
  private readonly users: readonly User[]
  private readonly opts: { clients: number; lan: string; timeoutMs: number }

  constructor(
    server: HopeServer,
    users: readonly User[],
    opts: { clients: number; lan: string; timeoutMs: number },
  ) {
    this.server = server
    this.users = users
    this.opts = opts
  }

  /** ms since the traffic began */
  now(): number {
    return Date.now() - this.began
  }

  start(): this {
    this.workers = Array.from({ length: this.opts.clients }, () => this.work())
    return this
  }

  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.workers)
  }

  sendTransfer(t: PlannedTransfer): Promise<Answer<unknown>> {
    return sendPlanned(this.server, this.users, t, {
      lan: this.opts.lan,
      timeoutMs: this.opts.timeoutMs,
    })
  }

  private record(path: string, at: number, a: Answer<unknown>): void {
    this.samples.push({
      at,
      path,
      status: a.status,
      code: a.body?.code,
      reason: (a.body as { reason?: string } | null)?.reason,
      msg: a.body?.msg,
      error: a.error,
      ms: a.ms,
    })
  }

  private async work(): Promise<void> {
    const n = this.users.length
    while (!this.stopped) {
      const at = this.now()
      if (randomInt(0, 2) === 0) {
        const from = randomInt(0, n)
        const a = await call(
          this.server.baseUrl,
          'userAccount/balance',
          {},
          { token: this.users[from]!.token, lan: this.opts.lan, timeoutMs: this.opts.timeoutMs },
        )
        this.record('userAccount/balance', at, a)
      } else {
        const from = randomInt(0, n - 1)
        const t: PlannedTransfer = {
          from,
          to: randomInt(from + 1, n),
          units: 1_000_000n + BigInt(randomInt(0, 1_000_000)),
          key: newKey('traffic'),
        }
        this.transfers.push(t)
        this.record('userAccount/transfer', at, await this.sendTransfer(t))
      }
      // A client whose server is down does not spin: it waits a moment before the next call.
      const last = this.samples.at(-1)!
      if (last.status <= 0 || last.status >= 500) await new Promise((r) => setTimeout(r, 100))
    }
  }
}

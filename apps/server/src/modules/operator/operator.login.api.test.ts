import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AdminMe, OperatorSession } from '@hope/api'
import { describe, expect, test } from 'vitest'
import { buildTestApp, call, databaseTargets, useTestApp } from '../../testing/index.ts'
import { KEY_FILE } from './operator.secret.ts'
import { base32Decode, base32Encode, hotp, totpStep } from '../../lib/totp.ts'

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/create-operator.ts')

describe.each(databaseTargets())('operator sign-in on $name', (target) => {
  const t = useTestApp(target)
  let ip = 0
  // Each test signs in from its own address, so the per-IP limit of one does not reach another.
  const from = () => ({ ip: `10.77.0.${++ip}`, lang: 'en' as const })
  const codeAt = (secret: Buffer, stepOffset: number) =>
    hotp(secret, totpStep(Date.now()) + BigInt(stepOffset))
  const login = (params: Record<string, string>) =>
    call<'admin/login', OperatorSession>(t.app, 'admin/login', params, from())

  test('signs in with password and the current code; each code works once', async () => {
    const op = await t.app.services.operators.create('otp-once', 'once-password-1', 'finance')
    const password = 'once-password-1'
    const first = await login({ username: 'otp-once', password, code: codeAt(op.totpSecret, 0) })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ username: 'otp-once', role: 'finance' })
    const me = await call<'admin/me', AdminMe>(
      t.app,
      'admin/me',
      {},
      { token: first.body.data.token },
    )
    expect(me.body.data).toEqual({ username: 'otp-once', role: 'finance' })

    const replay = await login({ username: 'otp-once', password, code: codeAt(op.totpSecret, 0) })
    expect(replay.status).toBe(401)
    expect(replay.body.reason).toBe('operator_login_failed')
    // The step before the one used is refused too; the next one (a phone a little ahead) works.
    const older = await login({ username: 'otp-once', password, code: codeAt(op.totpSecret, -1) })
    expect(older.body.reason).toBe('operator_login_failed')
    const next = await login({ username: 'otp-once', password, code: codeAt(op.totpSecret, 1) })
    expect(next.status).toBe(200)
  })

  test('a wrong code and a wrong password get the same answer', async () => {
    const op = await t.app.services.operators.create('otp-same', 'same-password-1', 'support')
    const wrongCode = await login({
      username: 'otp-same',
      password: 'same-password-1',
      code: codeAt(op.totpSecret, 5),
    })
    const wrongPassword = await login({
      username: 'otp-same',
      password: 'not-the-password',
      code: codeAt(op.totpSecret, 0),
    })
    const unknown = await login({ username: 'nobody', password: 'x', code: '123456' })
    expect(wrongCode.body).toMatchObject({
      code: 401,
      msg: 'Wrong username, password or verification code',
      reason: 'operator_login_failed',
    })
    // The same answer but for the request's own id.
    const answer = ({ requestId, ...rest }: { requestId?: unknown }) => {
      expect(requestId).toMatch(/^[0-9a-f]{16}$/)
      return rest
    }
    for (const res of [wrongCode, wrongPassword, unknown]) {
      expect(res.status).toBe(401)
      expect(answer(res.body)).toEqual(answer(wrongCode.body))
    }
    // The right password's code was not spent by the failed attempt.
    const ok = await login({
      username: 'otp-same',
      password: 'same-password-1',
      code: codeAt(op.totpSecret, 0),
    })
    expect(ok.status).toBe(200)
  })

  test('a code that is not six digits is a 400 totp_invalid', async () => {
    await t.app.services.operators.create('otp-form', 'form-password-1', 'content')
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const res = await login({ username: 'otp-form', password: 'form-password-1', code })
      expect(res.status).toBe(400)
      expect(res.body.reason).toBe('totp_invalid')
    }
  })

  test('the secret is stored sealed and only opens for its own operator', async () => {
    const op = await t.app.services.operators.create('otp-seal', 'seal-password-1', 'admin')
    await t.app.services.operators.create('otp-other', 'other-password-1', 'admin')
    const stored = (
      await t.db.pool.query<{ s: string }>(
        `SELECT totp_secret AS s FROM operators WHERE username = 'otp-seal'`,
      )
    ).rows[0]!.s
    expect(stored).toMatch(/^v1\./)
    expect(stored).not.toContain(base32Encode(op.totpSecret))
    expect(stored).not.toContain(op.totpSecret.toString('base64url'))
    // The sealed secret moved to another operator's row does not open there.
    await t.db.pool.query(`UPDATE operators SET totp_secret = $1 WHERE username = 'otp-other'`, [
      stored,
    ])
    const moved = await login({
      username: 'otp-other',
      password: 'other-password-1',
      code: codeAt(op.totpSecret, 0),
    })
    expect(moved.body.reason).toBe('operator_login_failed')
    // An operator with no authenticator enrolled cannot sign in at all.
    await t.db.pool.query(`UPDATE operators SET totp_secret = NULL WHERE username = 'otp-other'`)
    const none = await login({
      username: 'otp-other',
      password: 'other-password-1',
      code: '000000',
    })
    expect(none.body.reason).toBe('operator_login_failed')
  })

  test('logout ends the session: the token is refused afterwards', async () => {
    const op = await t.app.services.operators.create('otp-out', 'out-password-1', 'support')
    const token = (
      await login({
        username: 'otp-out',
        password: 'out-password-1',
        code: codeAt(op.totpSecret, 0),
      })
    ).body.data.token
    expect((await call(t.app, 'admin/logout', {}, { token })).status).toBe(200)
    const after = await call(t.app, 'admin/me', {}, { token })
    expect(after.status).toBe(401)
    expect(after.body.reason).toBe('session_expired')
  })

  test('failed sign-ins slow the same username down per IP, never locking out another IP', async () => {
    const op = await t.app.services.operators.create('otp-rate', 'rate-password-1', 'finance')
    const attempt = (ip: string, password = 'wrong', code = '000000') =>
      call(t.app, 'admin/login', { username: 'otp-rate', password, code }, { ip })
    const reasons: string[] = []
    for (let i = 0; i < 5; i++) reasons.push((await attempt('10.78.0.1')).body.reason!)
    expect(reasons).toEqual([
      'operator_login_failed',
      'operator_login_failed',
      'operator_login_failed',
      'rate_limited',
      'rate_limited',
    ])
    const owner = await attempt('10.78.0.2', 'rate-password-1', codeAt(op.totpSecret, 0))
    expect(owner.status).toBe(200)
  })

  test('admin:create makes an operator whose enrolment link signs in; --json for scripts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-operator-'))
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.db.url, DATA_DIR: dataDir }
    delete env.OPERATOR_SECRET_KEY
    delete env.OPERATOR_PASSWORD
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [SCRIPT, ...args], { env, encoding: 'utf8' })
    try {
      const made = run('script-admin', 'admin', '--json')
      expect(made.status, made.stderr).toBe(0)
      const line = JSON.parse(made.stdout.trim()) as Record<string, string>
      expect(Object.keys(line).sort()).toEqual(['otpauthUri', 'password', 'role', 'username'])
      expect(line).toMatchObject({ username: 'script-admin', role: 'admin' })
      expect(line.password!.length).toBeGreaterThanOrEqual(20)
      const uri = new URL(line.otpauthUri!)
      expect(uri.protocol).toBe('otpauth:')
      // The key sealing the secret was made under DATA_DIR, readable by its owner only.
      expect(fs.statSync(path.join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600)

      const human = run('script-cms', 'content')
      expect(human.status, human.stderr).toBe(0)
      expect(human.stdout).toMatch(/password \(shown once\): \S{20,}/)
      expect(human.stdout).toContain('otpauth://totp/HOPE%3Ascript-cms?secret=')
      expect(human.stdout).toMatch(/[▀▄█]/)

      expect(run('script-admin', 'admin', '--json').status).toBe(1)
      expect(run('someone', 'root').status).toBe(2)

      // The server reads the same key file and accepts the enrolled authenticator's code.
      const withKeyFile = await buildTestApp(t.db, {
        env: { DATA_DIR: dataDir, OPERATOR_SECRET_KEY: '' },
      })
      try {
        const secret = base32Decode(uri.searchParams.get('secret')!)!
        const res = await call<'admin/login', OperatorSession>(
          withKeyFile,
          'admin/login',
          { username: 'script-admin', password: line.password, code: codeAt(secret, 0) },
          from(),
        )
        expect(res.body.data).toMatchObject({ username: 'script-admin', role: 'admin' })
      } finally {
        await withKeyFile.close()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

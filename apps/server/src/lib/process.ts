import net from 'node:net'

/** Whether a process with this id exists (one of another user's counts too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on right now: `preferred` when it is free. */
export async function freePort(preferred?: number): Promise<number> {
  const listenOn = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer()
      srv.unref()
      srv.on('error', reject)
      srv.listen(port, '127.0.0.1', () => {
        const { port: bound } = srv.address() as net.AddressInfo
        srv.close(() => resolve(bound))
      })
    })
  if (preferred) {
    const port = await listenOn(preferred).catch(() => null)
    if (port) return port
  }
  return listenOn(0)
}

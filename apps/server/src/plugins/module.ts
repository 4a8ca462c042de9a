import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify'

/** The business clock a module's service reads; the real one when absent. */
export interface ModuleClock {
  now?: () => number
}

/**
 * A module's plugin: it creates the module's service from the services of the modules
 * registered before it, adds it to `app.services` and registers the module's routes. It runs on
 * the app itself rather than in a context of its own (as `fastify-plugin` would have it), so
 * the service it adds is there for every module after it.
 */
export function defineModule<O extends FastifyPluginOptions = FastifyPluginOptions>(
  name: string,
  plugin: (app: FastifyInstance, opts: O) => Promise<void>,
): FastifyPluginAsync<O> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: `${name} module`,
  })
}

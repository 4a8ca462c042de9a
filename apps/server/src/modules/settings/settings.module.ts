import { defineModule } from '../../plugins/module.ts'
import { createSettingsService } from './settings.service.ts'

/** The settings every other module reads; operators change them through the console's routes. */
export const settingsModule = defineModule('settings', async (app) => {
  app.services.settings = createSettingsService(app.db.pool)
})

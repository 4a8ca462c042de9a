import { defineModule } from '../define-module.ts'
import { createSettingsService } from './settings.service.ts'

/** The settings every other module reads; operators change them through the console's routes. */
export const settingsModule = defineModule({
  name: 'settings',
  services: (app) => ({ settings: createSettingsService(app.db.pool) }),
})

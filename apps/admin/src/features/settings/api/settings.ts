import type { AdminSetting } from '@hope/api'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

export const settingKeys = {
  all: ['settings'] as const,
  list: () => [...settingKeys.all, 'list'] as const,
  history: (key: string, pageNum: number, pageSize: number) =>
    [...settingKeys.all, 'history', key, pageNum, pageSize] as const,
}

/** `admin/settings`: every operator setting with its value, default and last change. */
export function settingsOptions() {
  return queryOptions({
    queryKey: settingKeys.list(),
    queryFn: ({ signal }) => request('admin/settings', {}, { signal }),
    staleTime: 0,
  })
}

/** `admin/settingHistory`: the changes of one setting, newest first. */
export function settingHistoryOptions(key: string, pageNum: number, pageSize: number) {
  return queryOptions({
    queryKey: settingKeys.history(key, pageNum, pageSize),
    queryFn: ({ signal }) =>
      request('admin/settingHistory', { key, pageNum, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  })
}

export interface UpdateSettingVariables {
  key: string
  value: string
  reason: string
}

type Options = MutationOptions<AdminSetting, UpdateSettingVariables>

/**
 * `admin/updateSetting`: the server validates the value against the setting's rules and
 * answers a translated message when it does not fit; the edit dialog shows it in place.
 */
export function useUpdateSetting(options: Options = {}) {
  return useRefreshingMutation(
    (params: UpdateSettingVariables) => request('admin/updateSetting', params),
    [settingKeys.all],
    { meta: { inlineError: true }, ...options },
  )
}

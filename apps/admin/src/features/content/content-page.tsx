import { Tabs } from 'antd'
import { useTranslation } from 'react-i18next'
import { BannersTab } from './banners-tab.tsx'
import { NewsTab } from './news-tab.tsx'
import { SchoolTab } from './school-tab.tsx'

/** Banners, news and business school, each in six languages (Chinese required). */
export function ContentPage() {
  const { t } = useTranslation()
  return (
    <div data-testid="admin-content">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'banners', label: t('content.banners'), children: <BannersTab /> },
          { key: 'news', label: t('content.news'), children: <NewsTab /> },
          { key: 'school', label: t('content.school'), children: <SchoolTab /> },
        ]}
      />
    </div>
  )
}

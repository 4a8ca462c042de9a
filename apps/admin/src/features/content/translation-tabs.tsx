import { LANGS, type Lang } from '@hope/api'
import { Badge, Button, Form, Input, Tabs } from 'antd'
import { useTranslation } from 'react-i18next'
import { hasVersion, type Texts } from './content.rules.ts'

/** Language names as their speakers write them. */
export const LANG_NAMES: Record<Lang, string> = {
  zhcn: '中文',
  en: 'English',
  ko: '한국어',
  ja: '日本語',
  th: 'ไทย',
  vi: 'Tiếng Việt',
}

export interface TextField {
  name: keyof Texts
  max: number
  rows?: number
}

function LangLabel({ lang }: { lang: Lang }) {
  const texts = Form.useWatch(['translations', lang]) as Partial<Texts> | undefined
  return <Badge status={hasVersion(texts) ? 'success' : 'default'} text={LANG_NAMES[lang]} />
}

/**
 * One tab per language with the kind's texts. Chinese is required (every other language falls
 * back to it); another language exists once it has a title, and clearing it removes it.
 */
export function TranslationTabs({
  fields,
  active,
  onActiveChange,
}: {
  fields: TextField[]
  active: Lang
  onActiveChange: (lang: Lang) => void
}) {
  const { t } = useTranslation()
  const form = Form.useFormInstance()

  const pane = (lang: Lang) => (
    <>
      {fields.map((f) => (
        <Form.Item
          key={f.name}
          name={['translations', lang, f.name]}
          label={t(`content.fields.${f.name}`)}
          dependencies={
            f.name === 'title' ? fields.map((o) => ['translations', lang, o.name]) : undefined
          }
          rules={
            f.name === 'title'
              ? [
                  lang === 'zhcn'
                    ? { required: true, whitespace: true, message: t('content.zhcnRequired') }
                    : {
                        validator: (_, value: string | undefined) => {
                          const texts = form.getFieldValue(['translations', lang]) as
                            Partial<Texts> | undefined
                          const other = fields.some(
                            (o) => o.name !== 'title' && (texts?.[o.name] ?? '').trim() !== '',
                          )
                          return other && !(value ?? '').trim()
                            ? Promise.reject(new Error(t('content.titleRequired')))
                            : Promise.resolve()
                        },
                      },
                ]
              : []
          }
        >
          {f.rows ? (
            <Input.TextArea
              rows={f.rows}
              maxLength={f.max}
              showCount
              data-testid={`admin-content-${f.name}-${lang}`}
            />
          ) : (
            <Input maxLength={f.max} showCount data-testid={`admin-content-${f.name}-${lang}`} />
          )}
        </Form.Item>
      ))}
      {lang !== 'zhcn' && (
        <Button
          danger
          size="small"
          data-testid={`admin-content-clear-${lang}`}
          onClick={() =>
            form.setFieldValue(
              ['translations', lang],
              Object.fromEntries(fields.map((f) => [f.name, ''])),
            )
          }
        >
          {t('content.clearLang')}
        </Button>
      )}
    </>
  )

  return (
    <Tabs
      activeKey={active}
      onChange={(key) => onActiveChange(key as Lang)}
      items={LANGS.map((lang) => ({
        key: lang,
        label: <LangLabel lang={lang} />,
        forceRender: true,
        children: pane(lang),
      }))}
    />
  )
}

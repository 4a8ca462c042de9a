import type { Lang, PricePoint } from '@hope/api'
import type { IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatNumber } from '../../lib/format/format.ts'
import { INTL_LOCALES } from '../../lib/i18n/lang.ts'
import { chartData, localUtcOffsetSec, type Tone } from './quotes.rules.ts'

const TONE_COLORS: Record<Tone, string> = { up: '#12a05c', down: '#e5484d', flat: '#4a5cff' }

/** The price scale's labels as the language writes numbers (Vietnamese 3.000,05). */
export const axisPrice = (price: number, precision: number, lang: Lang): string =>
  formatNumber(price.toFixed(precision), lang)

function seriesStyle(tone: Tone, precision: number, lang: Lang) {
  const color = TONE_COLORS[tone]
  return {
    lineColor: color,
    lineWidth: 2 as const,
    topColor: `${color}55`,
    bottomColor: `${color}05`,
    priceLineVisible: false,
    priceFormat: {
      type: 'custom' as const,
      minMove: 10 ** -precision,
      formatter: (price: number) => axisPrice(price, precision, lang),
    },
  }
}

/**
 * An area chart of a price over time, drawn with lightweight-charts. The library loads on
 * first use, so it only travels with the quotes screen; it sizes itself to its box.
 */
export function QuoteChart({
  points,
  tone,
  precision,
  lang,
}: {
  points: PricePoint[]
  tone: Tone
  precision: number
  lang: Lang
}) {
  const { t } = useTranslation('quotes')
  const box = useRef<HTMLDivElement>(null)
  const drawn = useRef<{ chart: IChartApi; series: ISeriesApi<'Area'> } | null>(null)
  /** Bumped each time a chart is created, so the data effect draws into the new one. */
  const [created, setCreated] = useState(0)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let disposed = false
    import('lightweight-charts')
      .then(({ createChart, AreaSeries, ColorType }) => {
        if (disposed || !box.current) return
        const chart = createChart(box.current, {
          autoSize: true,
          layout: {
            background: { type: ColorType.Solid, color: 'transparent' },
            textColor: '#676c82',
            fontSize: 11,
          },
          localization: { locale: INTL_LOCALES[lang] },
          grid: { vertLines: { visible: false }, horzLines: { color: '#eceef4' } },
          rightPriceScale: { borderVisible: false },
          timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false },
          crosshair: { horzLine: { visible: false } },
          handleScroll: false,
          handleScale: false,
        })
        const series = chart.addSeries(AreaSeries)
        drawn.current = { chart, series }
        setCreated((n) => n + 1)
      })
      .catch(() => {
        if (!disposed) setFailed(true)
      })
    return () => {
      disposed = true
      drawn.current?.chart.remove()
      drawn.current = null
    }
  }, [lang])

  useEffect(() => {
    const current = drawn.current
    if (!current) return
    current.series.applyOptions(seriesStyle(tone, precision, lang))
    current.series.setData(
      chartData(points, localUtcOffsetSec()).map((p) => ({
        time: p.time as UTCTimestamp,
        value: p.value,
      })),
    )
    current.chart.timeScale().fitContent()
  }, [created, points, tone, precision, lang])

  return (
    <div className="quote-chart" data-testid="quote-chart" data-points={points.length}>
      <div ref={box} className="quote-chart__canvas" />
      {failed && <p className="quote-chart__failed">{t('quotes.chartFailed')}</p>}
    </div>
  )
}

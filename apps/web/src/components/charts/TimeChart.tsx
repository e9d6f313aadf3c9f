import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { formatDateTime, formatTimeTick } from '../../lib/format-date';

export interface TimeSeries {
  label: string;
  color: string;
  /** One value per time, null for a gap. */
  values: (number | null)[];
}

export interface TimeChartProps {
  /** Accessible name of the chart (the canvas itself says nothing to a screen reader). */
  label: string;
  /** Unix seconds, ascending. */
  times: number[];
  series: TimeSeries[];
  /** The legend's name for the time (uPlot's default is English). */
  timeLabel: string;
  /** How a value reads on the axis and in the legend. */
  format: (value: number) => string;
  kind?: 'line' | 'bars';
  height?: number;
  /** Fixed value range, e.g. [0, 100] for a percentage. */
  range?: [number, number];
  /** The time span to show (unix seconds), e.g. the chosen window; else the data's own. */
  span?: [number, number];
  testId?: string;
}

/**
 * A time-series chart over uPlot (small, canvas-drawn, fast with thousands of points).
 * Time runs left to right in every language, so the chart box is always LTR.
 */
export function TimeChart(props: TimeChartProps) {
  const { times, series, format, kind = 'line', height = 180, range, label } = props;
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const theme = useTheme();
  const { i18n } = useTranslation();
  const language = i18n.language;
  const formatRef = useRef(format);
  const spanRef = useRef(props.span);
  const timeLabelRef = useRef(props.timeLabel);
  useEffect(() => {
    formatRef.current = format;
    spanRef.current = props.span;
    timeLabelRef.current = props.timeLabel;
  }, [format, props.span, props.timeLabel]);

  const shape = series.map((s) => `${s.label}|${s.color}`).join(',');
  const axisColor = theme.palette.text.secondary;
  const gridColor = theme.palette.divider;

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const show = (value: number | null | undefined) =>
      value === null || value === undefined ? '–' : formatRef.current(value);
    const bars = kind === 'bars' ? uPlot.paths.bars?.({ size: [0.9, 40] }) : undefined;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      scales: {
        x: {
          time: true,
          auto: true,
          range: (_u, min, max) => spanRef.current ?? [min, max],
        },
        y:
          range === undefined ? { range: (_u, min, max) => [0, Math.max(max, min, 1)] } : { range },
      },
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { show: false },
          space: 100,
          // Ticks in the reader's language: times of day, or short dates once ticks are days apart.
          values: (_u, splits, _axis, _space, increment) =>
            splits.map((v) => formatTimeTick(v, increment, language)),
        },
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { show: false },
          // Wide enough for the longest tick label (units are long words in some languages).
          size: (_u, values) =>
            values === null || values === undefined
              ? 50
              : Math.max(50, ...values.map((v) => v.length * 7 + 16)),
          values: (_u, splits) => splits.map((v) => formatRef.current(v)),
        },
      ],
      series: [
        {
          label: timeLabelRef.current,
          value: (_u, v: number | null) => (v === null ? '–' : formatDateTime(v * 1000, language)),
        },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: kind === 'bars' ? 0 : 2,
          fill: kind === 'bars' ? s.color : `${s.color}22`,
          paths: bars,
          ...(kind === 'bars' ? { points: { show: false } } : {}),
          value: (_u: uPlot, v: number | null) => show(v),
        })),
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
    };
    const plot = new uPlot(options, [[], ...series.map(() => [])], element);
    chart.current = plot;
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(element.clientWidth, 200), height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
    // The series' values are set by the next effect; only their shape rebuilds the chart.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, kind, height, range?.[0], range?.[1], axisColor, gridColor, language]);

  useEffect(() => {
    chart.current?.setData([times, ...series.map((s) => s.values)]);
  }, [times, series, shape, props.span]);

  return (
    <Box
      ref={box}
      dir="ltr"
      role="img"
      aria-label={label}
      data-testid={props.testId}
      sx={{
        width: '100%',
        minWidth: 0,
        overflow: 'hidden',
        '& .u-legend': { fontSize: 12, textAlign: 'start' },
      }}
    />
  );
}

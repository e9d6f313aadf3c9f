/** A small line of counts over time, scaled to its own largest point. */
export function Sparkline({ series, label }: { series: number[]; label: string }) {
  const width = 120;
  const height = 24;
  const top = Math.max(1, ...series);
  const step = series.length > 1 ? width / (series.length - 1) : 0;
  const points = series
    .map((n, i) => `${(i * step).toFixed(1)},${(height - 1 - (n / top) * (height - 2)).toFixed(1)}`)
    .join(' ');
  return (
    <svg width={width} height={height} role="img" aria-label={label} data-testid="sparkline">
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} />
    </svg>
  );
}

import { useTranslation } from 'react-i18next';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';

/** The windows every "over the last N days" figure offers (backtest, hits, rule analytics). */
export const DAY_WINDOWS = [1, 7, 30] as const;
export type DayWindow = (typeof DAY_WINDOWS)[number];

const LABELS = { 1: 'common.d1', 7: 'common.d7', 30: 'common.d30' } as const;

/** "1 day", "7 days" or "30 days" in the reader's language. */
export function useDaysLabel(): (days: number) => string {
  const { t } = useTranslation();
  return (days) =>
    t(LABELS[(DAY_WINDOWS as readonly number[]).includes(days) ? (days as DayWindow) : 7]);
}

/** A switch between the last 1, 7 and 30 days. */
export function DaysToggle({
  days,
  onChange,
  label,
}: {
  days: number;
  onChange: (days: DayWindow) => void;
  /** What the window is of, for assistive technology. */
  label: string;
}) {
  const daysLabel = useDaysLabel();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={days}
      onChange={(_event, next: DayWindow | null) => next !== null && onChange(next)}
      aria-label={label}
    >
      {DAY_WINDOWS.map((n) => (
        <ToggleButton key={n} value={n}>
          {daysLabel(n)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

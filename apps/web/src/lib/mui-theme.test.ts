import { describe, expect, it } from 'vitest';
import { buildTheme } from './mui-theme';
import { DEFAULT_COLOURS } from './theme';

describe('the Material theme and the system’s motion preference', () => {
  it('keeps transitions and the press ripple for full motion', () => {
    const theme = buildTheme(DEFAULT_COLOURS, 'ltr');
    expect(theme.transitions.create('opacity')).toMatch(/^opacity \d+ms/);
    expect(theme.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it('turns transitions and the ripple off for reduced motion, colours unchanged', () => {
    const full = buildTheme(DEFAULT_COLOURS, 'rtl');
    const still = buildTheme(DEFAULT_COLOURS, 'rtl', undefined, 'reduced');
    expect(still.transitions.create(['opacity', 'transform'])).toBe('none');
    expect(still.transitions.duration.enteringScreen).toBe(0);
    expect(still.transitions.duration.leavingScreen).toBe(0);
    expect(still.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    expect(still.palette.primary).toEqual(full.palette.primary);
    expect(still.direction).toBe('rtl');
    expect(still.components?.MuiLinearProgress).toEqual(full.components?.MuiLinearProgress);
  });
});

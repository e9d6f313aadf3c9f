import { describe, expect, it } from 'vitest';
import { DEFAULT_COLOURS, parseThemeColours } from './theme';

describe('theme.json', () => {
  it('has the spec default colours', () => {
    expect(DEFAULT_COLOURS).toEqual({
      primary: '#4682b4',
      secondary: '#b0bec5',
      accent: '#8c9eff',
      error: '#b71c1c',
      info: '#2196F3',
      success: '#4CAF50',
      warning: '#FFC107',
    });
  });

  it('reads flat, light and themes.light shapes; ignores what is not a colour', () => {
    expect(parseThemeColours({ primary: '#123456', bogus: '#fff' })).toEqual({
      primary: '#123456',
    });
    expect(parseThemeColours({ light: { error: 'rgb(1, 2, 3)' } })).toEqual({
      error: 'rgb(1, 2, 3)',
    });
    expect(parseThemeColours({ themes: { light: { info: 'teal' } } })).toEqual({ info: 'teal' });
    expect(parseThemeColours({ primary: 'url(javascript:x)' })).toEqual({});
    expect(parseThemeColours(null)).toEqual({});
    expect(parseThemeColours('nope')).toEqual({});
  });
});

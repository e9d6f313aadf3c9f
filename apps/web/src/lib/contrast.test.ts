import { describe, expect, it } from 'vitest';
import { contrastTextOn, hoverFillOf, LIGHT_SURFACE, textContrast, textShadeOf } from './contrast';
import { DEFAULT_COLOURS } from './theme';

describe('text contrast of the spec palette (WCAG 2.1 AA, 4.5:1)', () => {
  it('labels on every spec colour reach 4.5:1; white stays where it already did', () => {
    for (const fill of Object.values(DEFAULT_COLOURS)) {
      expect(textContrast(contrastTextOn(fill), fill)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastTextOn(DEFAULT_COLOURS.error)).toBe('#fff');
    expect(contrastTextOn(DEFAULT_COLOURS.primary)).not.toBe('#fff');
    expect(contrastTextOn(DEFAULT_COLOURS.info)).not.toBe('#fff');
    expect(contrastTextOn(DEFAULT_COLOURS.success)).not.toBe('#fff');
  });

  it('text in a spec colour on white and on the selected grey reaches 4.5:1', () => {
    for (const colour of Object.values(DEFAULT_COLOURS)) {
      const shade = textShadeOf(colour);
      expect(textContrast(shade, '#fff')).toBeGreaterThanOrEqual(4.5);
      expect(textContrast(shade, LIGHT_SURFACE)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps a colour that already passes and darkens one that does not', () => {
    expect(textShadeOf(DEFAULT_COLOURS.error)).toBe(DEFAULT_COLOURS.error);
    expect(textShadeOf(DEFAULT_COLOURS.primary)).toBe('rgb(56, 104, 144)');
  });

  it('a custom theme colour gets a readable label and text shade too', () => {
    for (const colour of ['#777777', '#ffff00', 'rgb(0, 128, 128)', '#000']) {
      expect(textContrast(contrastTextOn(colour), colour)).toBeGreaterThanOrEqual(4.5);
      expect(textContrast(textShadeOf(colour), '#fff')).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('colour parsing', () => {
  it('reads hex, rgb(a) and hsl(a); refuses names', () => {
    expect(textContrast('#000', '#fff')).toBeCloseTo(21);
    expect(textContrast('rgb(0 0 0)', 'hsl(0, 0%, 100%)')).toBeCloseTo(21);
    expect(textContrast('rgba(0, 0, 0, 0.5)', '#fff')).toBeLessThan(5);
    expect(textContrast('teal', '#fff')).toBeNaN();
    expect(textShadeOf('teal')).toBe('teal');
  });
});

describe('the fill under the pointer (a contained button hovered)', () => {
  it('keeps every spec colour’s label at 4.5:1 and still differs from the fill', () => {
    for (const fill of Object.values(DEFAULT_COLOURS)) {
      const text = contrastTextOn(fill);
      const hover = hoverFillOf(fill, text);
      expect(textContrast(text, hover)).toBeGreaterThanOrEqual(4.5);
      expect(textContrast(hover, fill)).toBeGreaterThan(1.05);
    }
  });

  it('darkens by 30% under white labels, as MUI does', () => {
    expect(hoverFillOf('#b71c1c', '#fff')).toBe('rgb(128, 20, 20)');
  });

  it('darkens the primary blue under dark labels only as far as they stay readable', () => {
    const text = contrastTextOn(DEFAULT_COLOURS.primary);
    // MUI's own darker shade read 2.73:1 with the dark label (axe, on a hovered button).
    expect(textContrast(text, 'rgb(49, 91, 126)')).toBeLessThan(4.5);
    expect(textContrast(text, hoverFillOf(DEFAULT_COLOURS.primary, text))).toBeGreaterThanOrEqual(
      4.5,
    );
  });
});

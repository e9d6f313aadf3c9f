// WCAG 2.1 text contrast for the theme colours. Self-contained (no component kit): the sign-in
// page, which does not load MUI, publishes the same shades as CSS variables (theme.ts).

/** WCAG 2.1 AA for normal-size text (1.4.3). */
export const MIN_TEXT_CONTRAST = 4.5;
/**
 * The darkest light surface coloured text sits on: MUI's `action.selected` (8% black) over
 * white, behind the active navigation entry and selected rows.
 */
export const LIGHT_SURFACE = '#ebebeb';
const WHITE = '#fff';
/** MUI's light-mode `text.primary`. */
const DARK_TEXT = 'rgba(0, 0, 0, 0.87)';

type Rgba = [number, number, number, number];

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [f(0), f(8), f(4)];
}

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(a)() and hsl(a)(); null for anything else. */
export function parseColour(colour: string): Rgba | null {
  const text = colour.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text)?.[1];
  if (hex !== undefined) {
    const digits = hex.length <= 4 ? [...hex].map((d) => d + d) : (hex.match(/../g) ?? []);
    const [r = 0, g = 0, b = 0, a = 255] = digits.map((d) => parseInt(d, 16));
    return [r, g, b, a / 255];
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(text);
  if (fn === null) return null;
  const parts = (fn[2] ?? '').split(/[\s,/]+/).filter((p) => p !== '');
  const nums = parts.map((p) => parseFloat(p));
  if (nums.length < 3 || nums.some((n) => Number.isNaN(n))) return null;
  const alphaPart = parts[3];
  const alpha = alphaPart === undefined ? 1 : alphaPart.endsWith('%') ? nums[3]! / 100 : nums[3]!;
  if (fn[1]!.startsWith('rgb')) {
    const channel = (i: number) => (parts[i]!.endsWith('%') ? (nums[i]! * 255) / 100 : nums[i]!);
    return [channel(0), channel(1), channel(2), alpha];
  }
  const [r, g, b] = hslToRgb(nums[0]! % 360, nums[1]! / 100, nums[2]! / 100);
  return [r, g, b, alpha];
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** `fg` (which may be translucent) painted over the opaque `bg`. */
function over(fg: Rgba, bg: Rgba): Rgba {
  const a = fg[3];
  return [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a)).concat(1) as Rgba;
}

/** The contrast ratio of text of `foreground` (translucent allowed) on the opaque `background`. */
export function textContrast(foreground: string, background: string): number {
  const fg = parseColour(foreground);
  const bg = parseColour(background);
  if (fg === null || bg === null) return Number.NaN;
  const [light, dark] = [luminance(over(fg, bg)), luminance(bg)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const rgb = ([r, g, b]: Rgba) => `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;

/**
 * The text colour for labels drawn on a fill of `fill`: white where it reaches 4.5:1, else
 * MUI's dark text, else black. A colour this cannot read gets MUI's dark text.
 */
export function contrastTextOn(fill: string): string {
  if (textContrast(WHITE, fill) >= MIN_TEXT_CONTRAST) return WHITE;
  if (parseColour(fill) === null || textContrast(DARK_TEXT, fill) >= MIN_TEXT_CONTRAST) {
    return DARK_TEXT;
  }
  return '#000';
}

/** `colour` mixed toward black (`amount` < 0) or white (`amount` > 0) by |amount|. */
function mix(colour: Rgba, amount: number): string {
  const target = amount < 0 ? 0 : 255;
  const weight = Math.abs(amount);
  return rgb(colour.map((c, i) => (i < 3 ? c + (target - c) * weight : 1)) as Rgba);
}

/**
 * `colour` as text on light surfaces: the colour itself where it reaches 4.5:1 on
 * LIGHT_SURFACE (and so on white), else the first darker shade of it, in steps of 5%, that
 * does. A colour this cannot read is kept as it is.
 */
export function textShadeOf(colour: string): string {
  const parsed = parseColour(colour);
  if (parsed === null) return colour;
  const solid = over(parsed, [255, 255, 255, 1]);
  for (let step = 0; step <= 20; step += 1) {
    const shade = step === 0 ? colour : mix(solid, -step * 0.05);
    if (textContrast(shade, LIGHT_SURFACE) >= MIN_TEXT_CONTRAST) return shade;
  }
  return '#000';
}

/**
 * The fill a pressable surface of `fill` takes under the pointer (MUI's palette `dark`), with
 * `text` still readable on it: MUI's own 30% darker shade where the text keeps 4.5:1 (white
 * labels only gain), else the darkest shade short of that in steps of 5%, else, for dark labels
 * on a fill that cannot darken at all, a 10% lighter one.
 */
export function hoverFillOf(fill: string, text: string): string {
  const parsed = parseColour(fill);
  if (parsed === null) return fill;
  const solid = over(parsed, [255, 255, 255, 1]);
  for (let step = 6; step >= 1; step -= 1) {
    const shade = mix(solid, -step * 0.05);
    if (textContrast(text, shade) >= MIN_TEXT_CONTRAST) return shade;
  }
  return mix(solid, 0.1);
}

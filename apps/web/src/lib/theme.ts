import { contrastTextOn, textShadeOf } from './contrast';

/** Spec §9 default light theme colours. */
export const DEFAULT_COLOURS = {
  primary: '#4682b4',
  secondary: '#b0bec5',
  accent: '#8c9eff',
  error: '#b71c1c',
  info: '#2196F3',
  success: '#4CAF50',
  warning: '#FFC107',
} as const;

export type ThemeColours = Record<keyof typeof DEFAULT_COLOURS, string>;

const COLOUR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([^)]*\)|[a-z]+)$/i;

/**
 * Reads /assets/theme.json: either the colours themselves or them under `light`
 * (or `themes.light`). Unknown keys and values that are not colours are ignored.
 */
export function parseThemeColours(json: unknown): Partial<ThemeColours> {
  const pick = (value: unknown): Record<string, unknown> | null =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const root = pick(json);
  if (root === null) return {};
  const source = pick(pick(root.themes)?.light) ?? pick(root.light) ?? root;
  const colours: Partial<ThemeColours> = {};
  for (const key of Object.keys(DEFAULT_COLOURS) as (keyof ThemeColours)[]) {
    const value = source[key];
    if (typeof value === 'string' && COLOUR.test(value.trim())) colours[key] = value.trim();
  }
  return colours;
}

let pending: Promise<ThemeColours> | null = null;
let loaded: ThemeColours | null = null;

/** The theme colours, fetched once; also published as CSS variables for plain-CSS screens. */
export function themeColours(): Promise<ThemeColours> {
  pending ??= loadThemeColours().then((colours) => {
    applyThemeVariables(colours);
    loaded = colours;
    return colours;
  });
  return pending;
}

/**
 * The colours `themeColours()` has fetched, or null before they came: a screen mounted later
 * starts in them instead of drawing everything twice, in the defaults and then again.
 */
export function loadedThemeColours(): ThemeColours | null {
  return loaded;
}

export function sameColours(a: ThemeColours, b: ThemeColours): boolean {
  return (Object.keys(DEFAULT_COLOURS) as (keyof ThemeColours)[]).every((key) => a[key] === b[key]);
}

/**
 * --pal-primary etc. on the root element, read by the sign-in page's stylesheet, with
 * --pal-primary-contrast (labels on the colour) and --pal-primary-text (the colour as text on
 * white), both reaching WCAG AA's 4.5:1.
 */
export function applyThemeVariables(colours: ThemeColours): void {
  const style = document.documentElement.style;
  for (const [name, value] of Object.entries(colours)) {
    style.setProperty(`--pal-${name}`, value);
    style.setProperty(`--pal-${name}-contrast`, contrastTextOn(value));
    style.setProperty(`--pal-${name}-text`, textShadeOf(value));
  }
}

/** GET /assets/theme.json; failures are logged only and the defaults apply (spec §8). */
async function loadThemeColours(): Promise<ThemeColours> {
  try {
    const response = await fetch('/assets/theme.json', { headers: { Accept: 'application/json' } });
    // 204: the operator has no theme.
    if (response.status !== 200) {
      console.info(`no custom theme (HTTP ${response.status}); default colours apply`);
      return { ...DEFAULT_COLOURS };
    }
    const json: unknown = await response.json();
    return { ...DEFAULT_COLOURS, ...parseThemeColours(json) };
  } catch (error) {
    console.warn('custom theme could not be loaded; default colours apply', error);
    return { ...DEFAULT_COLOURS };
  }
}

/** GET /assets/custom.css; when present its rules are added after the app's own styles. */
export async function loadCustomStyles(): Promise<void> {
  try {
    const response = await fetch('/assets/custom.css', { headers: { Accept: 'text/css' } });
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.includes('css')) {
      console.info('no custom styles; default styles apply');
      return;
    }
    const style = document.createElement('style');
    style.dataset.source = 'custom.css';
    style.textContent = await response.text();
    document.head.append(style);
  } catch (error) {
    console.warn('custom styles could not be loaded; default styles apply', error);
  }
}

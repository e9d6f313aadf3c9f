/**
 * Stands in for MUI's `locale/utils/buildFormatNumber` (aliased in vite.config.ts): the same
 * formatter, but its `Intl.NumberFormat` is made at its first use instead of when the module
 * loads. MUI's TablePagination builds one for its default label (which the console replaces)
 * as the page's scripts run, and the first Intl object of a page costs 130–190 ms under 4× CPU
 * throttling (the browser loads its number and collation data): it delayed every list page's
 * first paint. See ARCHITECTURE.md, "The first Intl object".
 */
export default function buildFormatNumber(locale: string): (value: number) => string {
  let formatter: Intl.NumberFormat | null | undefined;
  return (value) => {
    if (!Number.isFinite(value)) return String(value);
    if (formatter === undefined) {
      try {
        formatter = new Intl.NumberFormat(locale);
      } catch {
        formatter = null; // as MUI's: fall back to String()
      }
    }
    return formatter ? formatter.format(value) : String(value);
  };
}

// What the browser tests put on the page's window (read back with page.evaluate).
interface Window {
  axe: { run: (context: unknown, options: unknown) => Promise<any> };
  __notices: { text: string; at: number }[];
  __changedAt: number | undefined;
  __sameDocument: boolean;
}

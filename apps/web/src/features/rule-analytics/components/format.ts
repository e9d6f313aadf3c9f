/** A share as the reader's language writes a percentage (one decimal at most). */
export const percent = (share: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share);

/** `gid:sid`, or a dash for an event without one. */
export const signatureOf = (rule: { gid: number | null; sid: number | null }) =>
  rule.sid === null ? '–' : `${rule.gid ?? 1}:${rule.sid}`;

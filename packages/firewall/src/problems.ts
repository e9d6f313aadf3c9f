/** Something wrong with the input, named precisely enough for a 422 answer. */
export interface Problem {
  /** Index of the rule in the ruleset; null for the device's network (NAT, routes). */
  rule: number | null;
  /** `source`, `destination_ports`, … for a rule; `port_forwards.2.to_address` for NAT. */
  field: string;
  message: string;
}

/** Long lists (a 5,000-entry variable gone wrong) are reported this far, then summarized. */
export const MAX_MESSAGES_PER_FIELD = 5;

export function fieldProblems(rule: number | null, field: string, messages: string[]): Problem[] {
  const shown = messages.slice(0, MAX_MESSAGES_PER_FIELD).map((message) => ({
    rule,
    field,
    message,
  }));
  const more = messages.length - shown.length;
  if (more > 0) shown.push({ rule, field, message: `and ${more} more like these` });
  return shown;
}

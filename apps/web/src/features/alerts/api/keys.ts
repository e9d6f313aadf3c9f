/** Every Alerts query starts with this key; the live channel and mutations invalidate it. */
export const alertsKey = ['alerts'] as const;

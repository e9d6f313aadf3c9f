/** Every Monitoring query starts with this key; the live channel invalidates through it. */
export const monitoringKey = ['monitoring'] as const;

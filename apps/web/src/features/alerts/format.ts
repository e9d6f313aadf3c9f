/** "10.0.0.1:53", "[2001:db8::1]:443", or the address alone without a port. */
export const endpoint = (ip: string | null, port: number | null): string =>
  ip === null ? '–' : port === null ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;

import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

describe('TokenService', () => {
  it('accepts its own token for its audience only, and not a tampered one', async () => {
    const tokens = new TokenService('test-secret-0123456789abcdef0123456789', 60);
    const token = await tokens.issue({ subject: 7, tokenVersion: 2 }, 'palisade-agent');
    expect(await tokens.verify(token, 'palisade-agent')).toEqual({ subject: 7, tokenVersion: 2 });
    // Verified once (and remembered) for agents: still refused to the console.
    expect(await tokens.verify(token, 'palisade-console')).toBeUndefined();
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    expect(await tokens.verify(forged, 'palisade-agent')).toBeUndefined();
    const other = new TokenService('another-secret-0123456789abcdef01234567', 60);
    expect(await other.verify(token, 'palisade-agent')).toBeUndefined();
  });

  it('stops accepting a remembered token once it expires', async () => {
    let now = Date.parse('2026-11-28T12:00:00.000Z');
    const clock = { now: () => now };
    const tokens = new TokenService('test-secret-0123456789abcdef0123456789', 2 / 60, clock);
    const token = await tokens.issue({ subject: 1, tokenVersion: 0 }, 'palisade-agent');
    expect(await tokens.verify(token, 'palisade-agent')).toBeDefined();
    now += 1900;
    expect(await tokens.verify(token, 'palisade-agent')).toBeDefined();
    now += 200;
    expect(await tokens.verify(token, 'palisade-agent')).toBeUndefined();
  });
});

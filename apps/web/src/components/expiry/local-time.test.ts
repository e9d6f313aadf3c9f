import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './local-time';

describe('local time of an expiry input', () => {
  it('round-trips an instant through the input to the minute', () => {
    const iso = new Date(2026, 11, 1, 9, 30).toISOString();
    expect(toLocalInput(iso)).toBe('2026-12-01T09:30');
    expect(fromLocalInput('2026-12-01T09:30')).toBe(iso);
  });

  it('reads an empty or broken value as none', () => {
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('not a date')).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2026-13-45Tzz')).toBeNull();
  });
});

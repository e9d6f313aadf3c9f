import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_TERMS, matchesMissing, matchesSearch, parseSearch } from './index.js';

const c = (include: string[], exclude: string[] = []) => ({ include, exclude });

describe('parseSearch', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['trojan', [c(['trojan'])]],
    ['ET trojan', [c(['ET', 'trojan'])]],
    ['"ET TROJAN" zeus', [c(['ET TROJAN', 'zeus'])]],
    ['zeus -policy', [c(['zeus'], ['policy'])]],
    ['-"ET POLICY" scan', [c(['scan'], ['ET POLICY'])]],
    ['zeus OR emotet', [c(['zeus']), c(['emotet'])]],
    ['"a b" -c OR d -"e f"', [c(['a b'], ['c']), c(['d'], ['e f'])]],
    // OR is an operator only in capitals, and only between parts.
    ['zeus or emotet', [c(['zeus', 'or', 'emotet'])]],
    ['OR zeus OR', [c(['zeus'])]],
    ['zeus OR OR emotet', [c(['zeus']), c(['emotet'])]],
    // A lone dash, an empty phrase and an unclosed quote.
    ['- zeus ""', [c(['zeus'])]],
    ['"unclosed phrase', [c(['unclosed phrase'])]],
    ['-only', [c([], ['only'])]],
    // Wildcards and quotes inside a word are literal text.
    ['50%_off a"b', [c(['50%_off', 'a"b'])]],
  ])('%j parses to %j', (text, expected) => {
    expect(parseSearch(text)).toEqual(expected);
  });

  it(`keeps at most ${MAX_SEARCH_TERMS} terms`, () => {
    const parsed = parseSearch(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' OR '));
    expect(parsed.flatMap((clause) => clause.include)).toHaveLength(MAX_SEARCH_TERMS);
  });
});

describe('matchesSearch', () => {
  const texts = ['ET TROJAN Zeus check-in', 'sensor-1'];
  it.each([
    ['', true],
    ['zeus', true],
    ['"trojan zeus"', true],
    ['"zeus trojan"', false],
    ['zeus -sensor', false],
    ['zeus -"sensor-2"', true],
    ['emotet OR SENSOR-1', true],
    ['emotet OR -trojan', false],
    ['50%', false],
  ])('%j: %s', (search, expected) => {
    expect(matchesSearch(texts, parseSearch(search))).toBe(expected);
  });
});

describe('matchesMissing', () => {
  it.each([
    ['', true],
    ['zeus', false],
    ['-zeus', true],
    ['zeus -x', false],
    ['zeus OR -x', true],
  ])('%j: %s', (search, expected) => {
    expect(matchesMissing(parseSearch(search))).toBe(expected);
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ar from './ar.json';
import en from './en.json';
import ru from './ru.json';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const enKeys = keys(en).sort();
const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
const lookup = (tree: Tree, key: string) =>
  key.split('.').reduce<string | Tree | undefined>((node, part) => {
    return typeof node === 'object' ? node[part] : undefined;
  }, tree);

describe('locales', () => {
  it.each([
    ['ru', ru],
    ['ar', ar],
  ])('%s.json has exactly the keys of en.json', (_name, locale) => {
    expect(keys(locale).sort()).toEqual(enKeys);
  });

  it.each([
    ['ru', ru],
    ['ar', ar],
  ])('%s.json keeps every interpolation placeholder and translates the text', (_name, locale) => {
    for (const key of enKeys) {
      const source = lookup(en, key) as string;
      const text = lookup(locale, key);
      expect(typeof text, key).toBe('string');
      expect(placeholders(text as string), key).toEqual(placeholders(source));
    }
  });

  it.each([
    ['ru', ru],
    ['ar', ar],
  ])('%s.json leaves no English prose untranslated', (_name, locale) => {
    // Names and codes read the same in every language (Palisade, SID, TCP, URL, …).
    const names = new Set(['app.name']);
    const english = enKeys.filter((key) => {
      const source = lookup(en, key) as string;
      const prose = /[a-z]{3,}/.test(source.replace(/{{\w+}}/g, ''));
      return prose && !names.has(key) && lookup(locale, key) === source;
    });
    expect(english).toEqual([]);
  });

  it('every en.json key is used somewhere in the source', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const code = sources(root)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = enKeys.filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it('spec texts are exact in English', () => {
    expect(en.common.loading).toBe('Loading...');
    expect(en.table.rowsPerPage).toBe('Rows per page');
    expect(en.table.all).toBe('All');
    expect(en.auth.loggedIn).toBe('Logged in');
    expect(en.system.updateAvailable).toBe('A new component versions available. Please update.');
    expect(en.errors.incorrectLogin).toBe('Incorrect login or password');
    expect(en.errors.tooManyLogins).toBe('Too many login attempts');
    expect(en.errors.network).toBe('Network error');
    expect(en.errors.unknownBackend).toBe('Unknown backend error');
    expect(en.errors.userAlreadyExist).toBe('User already exist');
  });
});

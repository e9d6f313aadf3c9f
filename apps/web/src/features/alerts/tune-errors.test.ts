import { TuneErrorCode } from '@palisade/contract';
import { describe, expect, it } from 'vitest';
import ar from '../../locales/ar.json';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { TUNE_ERROR_KEYS } from './tune-errors';

type Tree = { [key: string]: string | Tree };
const text = (tree: Tree, key: string) =>
  key.split('.').reduce<string | Tree | undefined>((node, part) => {
    return typeof node === 'object' ? node[part] : undefined;
  }, tree);

describe('tuning refusals', () => {
  it('have a distinct text in every language for every code the server answers', () => {
    const keys = TuneErrorCode.options.map((code) => TUNE_ERROR_KEYS[code]);
    expect(new Set(keys).size).toBe(TuneErrorCode.options.length);
    for (const key of keys)
      for (const locale of [en, ru, ar]) expect(typeof text(locale, key), key).toBe('string');
  });
});

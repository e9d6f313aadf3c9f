import { describe, expect, it } from 'vitest';
import { LoginForm, ValidationMessage } from '@palisade/contract';
import en from '../../locales/en.json';
import { validateLogin } from './login-rules';

describe('sign-in rules', () => {
  it('require both fields and 5+ password characters (spec §5)', () => {
    expect(validateLogin({ username: ' ', password: '' })).toEqual({
      username: 'validation.required',
      password: 'validation.required',
    });
    expect(validateLogin({ username: 'a@b.c', password: 'abcd' })).toEqual({
      password: 'validation.min5',
    });
    expect(validateLogin({ username: 'a@b.c', password: 'abcde' })).toEqual({});
  });

  it('accept nothing the contract’s LoginForm rejects', () => {
    for (const fields of [
      { username: '', password: 'abcdef' },
      { username: 'a@b.c', password: '' },
    ]) {
      expect(LoginForm.safeParse(fields).success).toBe(false);
      expect(validateLogin(fields)).not.toEqual({});
    }
  });

  it('show the contract’s texts', () => {
    expect(en.validation.required).toBe(ValidationMessage.required);
    expect(en.validation.min5).toBe(ValidationMessage.min5);
  });
});

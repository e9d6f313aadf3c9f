/**
 * Sign-in form rules: the contract's LoginForm (username and password required) plus the
 * spec's shorter password rule (§5, 5+ characters), which the sign-in form applies so that
 * older passwords keep working while new passwords follow the 8+ rules.
 *
 * Checked here rather than through the zod schema: zod alone is ~25 KB gzipped, and the
 * sign-in page must load within 150 KB of script (issue 3). login-rules.test.ts keeps these
 * rules in step with the contract's LoginForm.
 */
export interface LoginFields {
  username: string;
  password: string;
}

export type LoginProblems = Partial<
  Record<keyof LoginFields, 'validation.required' | 'validation.min5'>
>;

export const LOGIN_PASSWORD_MIN = 5;

export function validateLogin({ username, password }: LoginFields): LoginProblems {
  const problems: LoginProblems = {};
  if (username.trim() === '') problems.username = 'validation.required';
  if (password === '') problems.password = 'validation.required';
  else if (password.length < LOGIN_PASSWORD_MIN) problems.password = 'validation.min5';
  return problems;
}

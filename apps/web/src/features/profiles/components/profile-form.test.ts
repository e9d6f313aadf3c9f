import { describe, expect, it } from 'vitest';
import { ProfileFormSchema, toBody, toFormValues } from './profile-form';

describe('profile form', () => {
  it('round-trips variables through the key/value rows', () => {
    const profile = {
      id: 1,
      name: 'Office',
      description: '',
      variables: { HOME_NET: '10.0.0.0/8', HTTP_PORTS: '80,8080' },
      device_count: 0,
      updated_at: '2026-01-01T00:00:00Z',
    };
    const values = ProfileFormSchema.parse(toFormValues(profile));
    expect(toBody(values).variables).toEqual(profile.variables);
  });

  it('refuses duplicate and malformed names at their row', () => {
    const result = ProfileFormSchema.safeParse({
      name: 'x',
      description: '',
      variables: [
        { key: 'HOME_NET', value: 'any' },
        { key: 'HOME_NET', value: 'any' },
        { key: '1BAD', value: 'any' },
      ],
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['variables.1.key', 'variables.2.key']));
  });
});

import { z } from 'zod';
import { DeviceProfileWrite, ProfileVariables, type DeviceProfile } from '@palisade/contract';

/** The key/value editor's rows; turned into the contract's variables record on submit. */
export const ProfileFormSchema = z
  .object({
    name: DeviceProfileWrite.shape.name,
    description: DeviceProfileWrite.shape.description,
    variables: z.array(
      z.object({ key: ProfileVariables.keyType, value: ProfileVariables.valueType }),
    ),
  })
  .superRefine((form, context) => {
    const seen = new Set<string>();
    form.variables.forEach((row, index) => {
      if (seen.has(row.key))
        context.addIssue({
          code: 'custom',
          path: ['variables', index, 'key'],
          message: 'duplicate',
        });
      seen.add(row.key);
    });
  });
export type ProfileFormInput = z.input<typeof ProfileFormSchema>;
export type ProfileFormValues = z.output<typeof ProfileFormSchema>;

/** Suricata's usual variables, offered for a new profile. */
export const DEFAULT_VARIABLES: ProfileFormInput['variables'] = [
  { key: 'HOME_NET', value: '[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]' },
  { key: 'EXTERNAL_NET', value: '!$HOME_NET' },
];

export function toFormValues(profile: DeviceProfile | null): ProfileFormInput {
  if (profile === null) return { name: '', description: '', variables: DEFAULT_VARIABLES };
  return {
    name: profile.name,
    description: profile.description,
    variables: Object.entries(profile.variables).map(([key, value]) => ({ key, value })),
  };
}

export function toBody(values: ProfileFormValues) {
  return {
    name: values.name,
    description: values.description,
    variables: Object.fromEntries(values.variables.map((row) => [row.key, row.value])),
  };
}

/** Suricata's usual variables with their usual values, offered as one-click additions. */
export const COMMON_VARIABLES: readonly { key: string; value: string }[] = [
  { key: 'HOME_NET', value: '[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]' },
  { key: 'EXTERNAL_NET', value: '!$HOME_NET' },
  { key: 'HTTP_SERVERS', value: '$HOME_NET' },
  { key: 'SMTP_SERVERS', value: '$HOME_NET' },
  { key: 'SQL_SERVERS', value: '$HOME_NET' },
  { key: 'DNS_SERVERS', value: '$HOME_NET' },
  { key: 'HTTP_PORTS', value: '80' },
  { key: 'SSH_PORTS', value: '22' },
  { key: 'SHELLCODE_PORTS', value: '!80' },
  { key: 'ORACLE_PORTS', value: '1521' },
];

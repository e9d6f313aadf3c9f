import { ValidationMessage } from '@palisade/contract';

/** Contract validation texts (spec §5) → translation keys. */
const KEYS: Record<string, string> = {
  [ValidationMessage.required]: 'validation.required',
  [ValidationMessage.notValid]: 'validation.notValid',
  [ValidationMessage.passwordsMustMatch]: 'validation.passwordsMustMatch',
  [ValidationMessage.min8]: 'validation.min8',
  [ValidationMessage.special]: 'validation.special',
  [ValidationMessage.min5]: 'validation.min5',
  [ValidationMessage.uppercase]: 'validation.uppercase',
  [ValidationMessage.number]: 'validation.number',
};

/** The key for a validation text, or undefined when the text is not one of the spec's. */
export function validationKey(message: string | undefined): string | undefined {
  return message === undefined ? undefined : KEYS[message];
}

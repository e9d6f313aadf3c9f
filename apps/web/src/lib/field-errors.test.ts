import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { fieldErrors, leadingIndex } from './field-errors';

const invalid = new ApiError(422, 'HOME_NET: bad', 'validation_failed', [
  { field: 'variables.HOME_NET', msg: 'HOME_NET: "10.300.0.1" is not an IP address' },
  { field: 'variables.HOME_NET', msg: 'second' },
  { field: 'rules.1.destination_ports', msg: 'rule 2: bad port' },
]);

describe('fieldErrors', () => {
  it('keys the details under a prefix by the rest of the field', () => {
    expect(fieldErrors(invalid, 'variables')).toEqual(
      new Map([['HOME_NET', 'HOME_NET: "10.300.0.1" is not an IP address']]),
    );
    expect([...fieldErrors(invalid, 'rules').keys()]).toEqual(['1.destination_ports']);
  });

  it('is empty for anything but a 422', () => {
    expect(fieldErrors(new ApiError(409, 'x', 'conflict'), 'variables').size).toBe(0);
    expect(fieldErrors(new Error('x'), 'variables').size).toBe(0);
  });

  it('reads the leading index', () => {
    expect(leadingIndex('1.destination_ports')).toBe(1);
    expect(leadingIndex('12')).toBe(12);
    expect(leadingIndex('name')).toBeNull();
  });
});

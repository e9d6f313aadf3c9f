import { describe, expect, it } from 'vitest';
import { EMPTY_FORM, formFromParams, formToParams } from './filters';
import { formOfView, viewFiltersOf } from './saved-views';

const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('saved views of the alert filters', () => {
  it('keeps a relative range relative, and every field', () => {
    const form = {
      ...EMPTY_FORM,
      device: '3',
      range: '24h' as const,
      severity: '2',
      signature: 'ET SCAN',
      src_ip: '10.0.0.1',
      dest_port: '443',
      starred: 'true' as const,
      acknowledged: 'false' as const,
      not_proto: 'UDP',
    };
    const filters = viewFiltersOf(form, NOW);
    expect(filters).toEqual({
      device_id: 3,
      range: '24h',
      severity: 2,
      signature: 'ET SCAN',
      src_ip: '10.0.0.1',
      dest_port: 443,
      starred: 'true',
      acknowledged: 'false',
      not_proto: 'UDP',
    });
    expect(formOfView(filters ?? {})).toEqual(form);
  });

  it('keeps a custom range as its times, shown back in local time', () => {
    const form = { ...EMPTY_FORM, range: 'custom' as const, from: '2026-01-01T08:30', to: '' };
    const filters = viewFiltersOf(form, NOW);
    expect(filters).toEqual({ since: new Date('2026-01-01T08:30').toISOString() });
    expect(formOfView(filters ?? {})).toEqual(form);
  });

  it('saves nothing from a form that does not validate', () => {
    expect(viewFiltersOf({ ...EMPTY_FORM, src_port: '70000' }, NOW)).toBeNull();
  });

  it('reads and writes the starred filter in the URL', () => {
    const params = formToParams({ ...EMPTY_FORM, starred: 'true' }, new URLSearchParams());
    expect(params.toString()).toBe('starred=true');
    expect(formFromParams(params).starred).toBe('true');
    expect(formFromParams(new URLSearchParams('starred=maybe')).starred).toBe('');
  });
});

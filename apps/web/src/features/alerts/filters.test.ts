import { describe, expect, it } from 'vitest';
import {
  EMPTY_FORM,
  filterParams,
  formFromParams,
  formToParams,
  pivot,
  toFilters,
} from './filters';

const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('alert filters', () => {
  it('sends nothing for an empty form', () => {
    const { filters, errors } = toFilters(EMPTY_FORM, NOW);
    expect(errors).toEqual({});
    expect(filterParams(filters)).toEqual({});
  });

  it('turns every field into the API filter, a relative range into since', () => {
    const { filters, errors } = toFilters(
      {
        ...EMPTY_FORM,
        device: '7',
        range: '24h',
        severity: '2',
        signature: ' 2200073 ',
        src_ip: '192.168.37.130',
        src_port: '55551',
        dest_ip: '192.168.37.1',
        dest_port: '53',
        proto: 'UDP',
        acknowledged: 'false',
      },
      NOW,
    );
    expect(errors).toEqual({});
    expect(filterParams(filters)).toEqual({
      device_id: '7',
      since: '2026-01-09T12:00:00.000Z',
      severity: '2',
      signature: '2200073',
      src_ip: '192.168.37.130',
      src_port: '55551',
      dest_ip: '192.168.37.1',
      dest_port: '53',
      proto: 'UDP',
      acknowledged: 'false',
    });
  });

  it('names the fields the contract refuses', () => {
    const { errors } = toFilters(
      { ...EMPTY_FORM, src_port: '70000', dest_port: 'http', range: 'custom', from: 'soon' },
      NOW,
    );
    expect(errors).toEqual({ src_port: true, dest_port: true, from: true });
  });

  it('round-trips through the URL, keeping other parameters and dropping unknown values', () => {
    const form = { ...EMPTY_FORM, device: '3', signature: 'Zeus', range: '7d' as const };
    const params = formToParams(form, new URLSearchParams('view=groups&src_ip=1.2.3.4'));
    expect(params.toString()).toBe('view=groups&device=3&range=7d&signature=Zeus');
    expect(formFromParams(params)).toEqual(form);
    expect(formFromParams(new URLSearchParams('range=1y&acknowledged=maybe'))).toEqual(EMPTY_FORM);
  });
});

describe('pivots', () => {
  it('filters on a value or leaves it out, and either undoes the other', () => {
    const only = pivot(EMPTY_FORM, 'src_ip', '10.0.0.5', false);
    expect(only.src_ip).toBe('10.0.0.5');
    const out = pivot(only, 'src_ip', '10.0.0.5', true);
    expect(out.src_ip).toBe('');
    expect(out.not_src_ip).toBe('10.0.0.5');
    expect(toFilters(out, 0).filters).toEqual({ not_src_ip: '10.0.0.5' });
    const params = formToParams(pivot(out, 'sid', '2001', true), new URLSearchParams());
    expect(params.toString()).toBe('not_sid=2001&not_src_ip=10.0.0.5');
    expect(formFromParams(params).not_sid).toBe('2001');
  });
});

import { describe, expect, it } from 'vitest';
import type { RuleSource } from '@palisade/contract';
import { SourceForm, createBody, initialValues, updateBody } from './source-form';

const source: RuleSource = {
  id: 4,
  name: 'ET Open',
  url: 'https://rules.emergingthreats.net/open/suricata-7.0/emerging.rules.tar.gz',
  checksum_url: null,
  catalogue_id: 'et/open',
  has_secret: true,
  header_names: ['X-Token'],
  schedule: { kind: 'interval', hours: 6 },
  enabled: true,
  rule_count: 0,
  enabled_count: 0,
  group_count: 0,
  last_update: null,
  last_checked_at: null,
  next_update_at: null,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
};

describe('source form', () => {
  it('turns a catalogue entry into a create body with its checksum URL and schedule', () => {
    const values = SourceForm.parse(
      initialValues({
        entry: {
          id: 'et/open',
          name: 'ET Open',
          vendor: 'Proofpoint',
          description: '',
          license: 'MIT',
          url: 'https://example.test/emerging.rules.tar.gz',
          checksum_url: 'https://example.test/emerging.rules.tar.gz.md5',
          requires_secret: false,
        },
      }),
    );
    expect(createBody(values)).toEqual({
      name: 'ET Open',
      url: 'https://example.test/emerging.rules.tar.gz',
      checksum_url: 'https://example.test/emerging.rules.tar.gz.md5',
      catalogue_id: 'et/open',
      secret_code: null,
      headers: [],
      schedule: { kind: 'daily', time: '03:00' },
      enabled: true,
    });
  });

  it('an edit keeps the stored secret and headers unless replaced or cleared', () => {
    const start = initialValues({ source });
    const kept = updateBody(SourceForm.parse(start));
    expect(kept).not.toHaveProperty('secret_code');
    expect(kept).not.toHaveProperty('headers');
    expect(kept.schedule).toEqual({ kind: 'interval', hours: 6 });

    const cleared = updateBody(
      SourceForm.parse({ ...start, clear_secret: true, clear_headers: true }),
    );
    expect(cleared.secret_code).toBeNull();
    expect(cleared.headers).toEqual([]);

    const replaced = updateBody(
      SourceForm.parse({ ...start, secret_code: 'abc', headers: [{ name: 'X-A', value: '1' }] }),
    );
    expect(replaced.secret_code).toBe('abc');
    expect(replaced.headers).toEqual([{ name: 'X-A', value: '1' }]);
  });

  it('names what is wrong: a daily time that is not HH:MM, a URL that is not http', () => {
    const bad = SourceForm.safeParse({
      ...initialValues(null),
      name: 'x',
      url: 'ftp://mirror/rules.tar.gz',
      time: '25:00',
    });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['url', 'time']));
  });
});

import type { RuleChange, RuleSource } from '@palisade/contract';
import { parseRulesFile } from '@palisade/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  signIn,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { corpusFile, corpusForTests, NEEDS_CORPUS, oracle } from '../../test/corpus.js';
import { NEXT_DAY_RULE, sourceDays } from '../../test/source-days.js';
import {
  md5Hex,
  sourceApi,
  tableSnapshot as snapshot,
  ruleArchive,
  startSourceServer,
  type SourceServer,
} from '../../test/source-server.js';

type Headers = { authorization: string };

describe('rule sources: updates fetched from a local HTTP server', () => {
  let server: TestServer;
  let source: SourceServer;
  let admin: Headers;
  const days = sourceDays();
  let dayOne: Buffer;
  let dayTwo: Buffer;

  beforeAll(async () => {
    server = await startTestServer();
    source = await startSourceServer();
    admin = await signIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    client = sourceApi(server, admin);
    dayOne = await ruleArchive(days.first);
    dayTwo = await ruleArchive(days.next);
  });
  afterAll(async () => {
    await server?.close();
    await source?.close();
  });

  let client: ReturnType<typeof sourceApi>;
  const create = (body: Record<string, unknown>) => client.create(body);
  const update = (id: number) => client.update(id);

  const changesOf = async (id: number, updateId: number, filter = '') =>
    (
      await api(server.app, {
        url: `/rulesources/${id}/updates/${updateId}/changes?limit=100000${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`,
        headers: admin,
      })
    ).json<{ data: RuleChange[]; recordsTotal: number }>();

  // Rules are one per (gid, sid): a sample file may hold a sid the other holds too.
  const ruleCount = new Set(
    days.first.flatMap((f) => parseRulesFile(f.text).rules.map((r) => `${r.gid}:${r.sid}`)),
  ).size;

  describe('one source over two days', () => {
    let sourceId: number;
    let policyOfChanged: { id: number; version: number };
    let policyOfSteady: { id: number; version: number };

    it('imports the whole archive on its first update, each rule in the changelog as added', async () => {
      source.set('/day/emerging.rules.tar.gz', { body: dayOne, etag: '"day-1"' });
      const created = await create({
        name: 'ET-like',
        url: source.url('/day/emerging.rules.tar.gz'),
      });
      sourceId = created.id;
      expect(created).toMatchObject({ has_secret: false, header_names: [], next_update_at: null });
      const first = await update(sourceId);
      expect(first).toMatchObject({
        status: 'succeeded',
        trigger: 'manual',
        requested_by: ADMIN_EMAIL,
        added: ruleCount,
        removed: 0,
        changed: 0,
        error: null,
        bytes: dayOne.length,
      });
      const changes = await changesOf(sourceId, first.id);
      expect(changes.recordsTotal).toBe(ruleCount);
      expect(new Set(changes.data.map((c) => c.kind))).toEqual(new Set(['added']));

      const shown = (
        await api(server.app, { url: `/rulesources/${sourceId}`, headers: admin })
      ).json<RuleSource>();
      expect(shown).toMatchObject({ rule_count: ruleCount, group_count: 2 });
      expect(shown.last_update?.id).toBe(first.id);
      expect(shown.last_checked_at).not.toBeNull();

      // A policy on each of the source's groups: only the changed one's is bumped tomorrow.
      const groups = (await api(server.app, { url: '/groups/?limit=1000', headers: admin })).json<{
        data: { id: number; name: string; source_id: number | null }[];
      }>().data;
      const groupOf = (file: string) => {
        const group = groups.find((g) => g.name === file.replace(/\.rules$/, ''));
        expect(group?.source_id).toBe(sourceId);
        return group?.id ?? -1;
      };
      const policy = async (name: string, file: string) => {
        const response = await api(server.app, {
          method: 'POST',
          url: '/policies/',
          headers: admin,
          payload: { name, group_ids: [groupOf(file)] },
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<{ id: number; version: number }>();
      };
      policyOfChanged = await policy('changing', days.first[0]?.name ?? '');
      policyOfSteady = await policy('steady', days.first[1]?.name ?? '');
    });

    it('answers an unchanged source with one conditional request and writes nothing', async () => {
      const before = await snapshot(server);
      const from = source.hits.length;
      const again = await update(sourceId);
      expect(again).toMatchObject({ status: 'unchanged', added: 0, changed: 0, removed: 0 });
      const hits = source.since(from);
      expect(hits.map((h) => h.path)).toEqual(['/day/emerging.rules.tar.gz']);
      expect(hits[0]?.headers['if-none-match']).toBe('"day-1"');
      expect(await snapshot(server)).toEqual(before);
    });

    it('imports the next day: the exact changelog, and only the policy whose rules changed bumped', async () => {
      source.set('/day/emerging.rules.tar.gz', { body: dayTwo, etag: '"day-2"' });
      const next = await update(sourceId);
      expect(next).toMatchObject({
        status: 'succeeded',
        added: 1,
        changed: 1,
        removed: 1,
        enabled: 0,
        disabled: 1,
        policies_bumped: 1,
      });
      const changes = (await changesOf(sourceId, next.id)).data;
      const bySid = (sid: number) => changes.find((c) => c.sid === sid);
      expect(changes).toHaveLength(4);
      const { changedRule, removedRule, disabledRule, changedText } = days;
      expect(bySid(changedRule.sid)).toMatchObject({
        kind: 'changed',
        old_rev: changedRule.rev,
        new_rev: (changedRule.rev ?? 0) + 1,
        old_text: changedRule.text,
        new_text: changedText,
      });
      expect(bySid(removedRule.sid)).toMatchObject({
        kind: 'removed',
        old_rev: removedRule.rev,
        new_rev: null,
        old_text: removedRule.text,
        new_text: null,
      });
      expect(bySid(disabledRule.sid)).toMatchObject({
        kind: 'disabled',
        old_text: disabledRule.text,
        new_text: `# ${disabledRule.text}`,
      });
      expect(bySid(9_900_001)).toMatchObject({
        kind: 'added',
        old_rev: null,
        new_rev: 1,
        old_text: null,
        new_text: NEXT_DAY_RULE,
        msg: 'next day rule',
      });
      for (const change of changes) {
        expect(change.file.endsWith(days.first[0]?.name ?? '?')).toBe(true);
        expect(change.update_id).toBe(next.id);
      }
      expect((await changesOf(sourceId, next.id, 'kind:removed')).data.map((c) => c.sid)).toEqual([
        removedRule.sid,
      ]);

      const version = async (id: number) =>
        (await api(server.app, { url: `/policies/${id}`, headers: admin })).json<{
          version: number;
        }>().version;
      expect(await version(policyOfChanged.id)).toBe(policyOfChanged.version + 1);
      expect(await version(policyOfSteady.id)).toBe(policyOfSteady.version);

      // One rule's history, newest first, for the alert and policy screens' links.
      const history = (
        await api(server.app, {
          url: `/rulesources/rule-changes?sid=${changedRule.sid}`,
          headers: admin,
        })
      ).json<{ data: RuleChange[] }>().data;
      expect(history.map((c) => [c.kind, c.update_id])).toEqual([
        ['changed', next.id],
        ['added', history.at(-1)?.update_id],
      ]);

      const updates = (
        await api(server.app, { url: `/rulesources/${sourceId}/updates`, headers: admin })
      ).json<{ data: { id: number; status: string }[]; recordsTotal: number }>();
      expect(updates.data.map((u) => u.status)).toEqual(['succeeded', 'unchanged', 'succeeded']);
    });

    it('fetches the archive only when the published checksum moved', async () => {
      source.set('/md5/emerging.rules.tar.gz', { body: dayTwo });
      source.set('/md5/emerging.rules.tar.gz.md5', { body: `${md5Hex(dayTwo)}\n` });
      const created = await create({
        name: 'checksummed',
        url: source.url('/md5/emerging.rules.tar.gz'),
        checksum_url: source.url('/md5/emerging.rules.tar.gz.md5'),
      });
      let from = source.hits.length;
      expect((await update(created.id)).status).toBe('succeeded');
      expect(source.since(from).map((h) => h.path)).toEqual([
        '/md5/emerging.rules.tar.gz.md5',
        '/md5/emerging.rules.tar.gz',
      ]);
      const before = await snapshot(server);
      from = source.hits.length;
      expect((await update(created.id)).status).toBe('unchanged');
      expect(source.since(from).map((h) => h.path)).toEqual(['/md5/emerging.rules.tar.gz.md5']);
      expect(await snapshot(server)).toEqual(before);
    });
  });

  it('keeps the secret code and headers sealed: used to fetch, never answered', async () => {
    const secret = 'code-7f3a9c';
    source.set(`/pro/${secret}/etpro.rules.tar.gz`, { body: dayOne });
    const created = await create({
      name: 'commercial',
      url: source.url('/pro/%(secret-code)s/etpro.rules.tar.gz'),
      secret_code: secret,
      headers: [{ name: 'X-Api-Key', value: 'header-value-51be' }],
    });
    expect(created).toMatchObject({ has_secret: true, header_names: ['X-Api-Key'] });
    const from = source.hits.length;
    expect((await update(created.id)).status).toBe('succeeded');
    expect(source.since(from)[0]?.headers['x-api-key']).toBe('header-value-51be');

    const answers = [
      await api(server.app, { url: `/rulesources/${created.id}`, headers: admin }),
      await api(server.app, { url: '/rulesources/', headers: admin }),
      await api(server.app, {
        method: 'PUT',
        url: `/rulesources/${created.id}`,
        headers: admin,
        payload: { enabled: true },
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(secret);
      expect(answer.body).not.toContain('header-value-51be');
    }
    const [row] = await server.db.query<Record<string, string>>(
      'SELECT secret_ciphertext, headers_ciphertext, url FROM rule_sources WHERE id = $1',
      [created.id],
    );
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain('header-value-51be');

    // Sealed under another SECRET_KEY: the update says to enter the code again.
    const foreign = new SecretBox('another-secret-key-of-32-characters-or-more');
    await server.db.query('UPDATE rule_sources SET secret_ciphertext = $2 WHERE id = $1', [
      created.id,
      foreign.seal(secret, `rule_sources.secret:${created.id}`),
    ]);
    const failed = await update(created.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/enter the secret code again/);
  });

  it('refuses a URL with the secret placeholder but no secret code, naming the field', async () => {
    const response = await api(server.app, {
      method: 'POST',
      url: '/rulesources/',
      headers: admin,
      payload: { name: 'no code', url: 'http://127.0.0.1:9/%(secret-code)s/x.rules' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ details: { field: string }[] }>().details[0]?.field).toBe('secret_code');
  });

  it('names a source group after the source when an uploaded group has the name', async () => {
    const text = `${NEXT_DAY_RULE.replace('9900001', '9900101')}\n`;
    const body = new FormData();
    body.append('file', new Blob([text]), 'shared-name.rules');
    const request = new Request('http://x/', { method: 'POST', body });
    const upload = await api(server.app, {
      method: 'POST',
      url: '/rules/import',
      headers: { ...admin, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    source.set('/shared/shared-name.rules', {
      body: NEXT_DAY_RULE.replace('9900001', '9900102'),
    });
    const created = await create({ name: 'mirror', url: source.url('/shared/shared-name.rules') });
    const done = await update(created.id);
    expect(done).toMatchObject({ status: 'succeeded', added: 1, warning_count: 1 });
    expect(done.warnings[0]?.msg).toMatch(/mirror\/shared-name/);
    const groups = (await api(server.app, { url: '/groups/?filter=mirror', headers: admin })).json<{
      data: { id: number; name: string; source_id: number | null }[];
    }>().data;
    expect(groups).toEqual([
      expect.objectContaining({ name: 'mirror/shared-name', source_id: created.id }),
    ]);
    const renamed = await api(server.app, {
      method: 'PUT',
      url: `/groups/${groups[0]?.id}`,
      headers: admin,
      payload: { name: 'something else' },
    });
    expect(renamed.statusCode).toBe(409);
  });

  it('deletes a source and its history, keeping its groups as ordinary file groups', async () => {
    source.set('/gone/gone.rules', { body: NEXT_DAY_RULE.replace('9900001', '9900201') });
    const created = await create({ name: 'short-lived', url: source.url('/gone/gone.rules') });
    expect((await update(created.id)).status).toBe('succeeded');
    const deleted = await api(server.app, {
      method: 'DELETE',
      url: `/rulesources/${created.id}`,
      headers: admin,
    });
    expect(deleted.statusCode).toBe(200);
    expect(
      (await api(server.app, { url: `/rulesources/${created.id}`, headers: admin })).statusCode,
    ).toBe(404);
    const [left] = await server.db.query<{ source_id: number | null; updates: number }>(
      `SELECT g.source_id, (SELECT count(*)::int FROM rule_source_updates WHERE source_id = $1) AS updates
         FROM rule_groups g WHERE g.name = 'gone'`,
      [created.id],
    );
    expect(left).toEqual({ source_id: null, updates: 0 });
  });

  it.runIf(corpusForTests('rules/snort2-community/community-rules.tar.gz', 'oracle'))(
    `imports the real Snort community tarball added from the catalogue, as suricata-update reads it ${NEEDS_CORPUS}`,
    async () => {
      const catalogue = (
        await api(server.app, { url: '/rulesources/catalogue', headers: admin })
      ).json<{ data: { id: string; name: string; url: string }[] }>().data;
      const entry = catalogue.find((e) => e.id === 'snort/community');
      expect(entry).toBeDefined();
      // The catalogue's address, served from here instead of snort.org.
      const served = `/downloads/community/${entry?.url.split('/').pop()}`;
      source.set(served, { body: corpusFile('rules/snort2-community/community-rules.tar.gz') });
      const created = await create({
        name: entry?.name,
        catalogue_id: entry?.id,
        url: source.url(served),
      });
      const done = await update(created.id);
      const reference = oracle('snort2-community-tarball');
      const keys = (rules: typeof reference) => new Set(rules.map((r) => `${r.gid}:${r.sid}`)).size;
      expect(done).toMatchObject({ status: 'succeeded', added: keys(reference), removed: 0 });
      const shown = (
        await api(server.app, { url: `/rulesources/${created.id}`, headers: admin })
      ).json<RuleSource>();
      expect(shown).toMatchObject({
        catalogue_id: 'snort/community',
        rule_count: keys(reference),
        enabled_count: keys(reference.filter((r) => r.enabled)),
      });
    },
  );

  it('offers the catalogue for a Suricata version', async () => {
    const response = await api(server.app, {
      url: '/rulesources/catalogue?suricata_version=7.0.3',
      headers: admin,
    });
    const entries = response.json<{
      data: { id: string; url: string; checksum_url: string | null }[];
    }>().data;
    expect(entries.find((e) => e.id === 'et/open')).toMatchObject({
      url: 'https://rules.emergingthreats.net/open/suricata-7.0.3/emerging.rules.tar.gz',
      checksum_url:
        'https://rules.emergingthreats.net/open/suricata-7.0.3/emerging.rules.tar.gz.md5',
    });
    expect(entries.map((e) => e.id)).toEqual(
      expect.arrayContaining(['snort/community', 'sslbl/ssl-fp-blacklist', 'et/pro']),
    );
  });
});

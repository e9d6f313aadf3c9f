/* global document, window -- used in code that runs in the page */
// Issue 17, rule sources in the browser: ET Open is added from the catalogue with its URL and
// checksum URL pointed at a local HTTP server, updated, then updated again once the server
// holds the "next day" archive; the second update's changelog shows the changed rule's diff,
// and a device (a simulated agent) whose policy holds the source's group pulls the new policy
// version with the new rule.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { packTar } from 'modern-tar';
import { ADMIN } from '../lib/env.ts';
import { callApi } from '../lib/api.ts';
import {
  apiCall,
  assert,
  openSignedIn,
  signIn,
  uniqueEmail,
  visible,
  waitForNotice,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

/** The sids of one feed; each test has its own, as rules are unique by sid in an organization. */
const sidsFrom = (base: number) => ({
  changed: base + 1,
  removed: base + 2,
  kept: base + 3,
  added: base + 4,
});

const rule = (sid: number, rev: number, content: string) =>
  `alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"E2E feed ${sid}"; flow:established,to_server; http.uri; content:"${content}"; classtype:trojan-activity; sid:${sid}; rev:${rev};)`;

/** Day one and the "next day": one rule changed, one removed, one added, one as it was. */
const daysOf = (SID: ReturnType<typeof sidsFrom>) => [
  [rule(SID.changed, 1, '/gate.php'), rule(SID.removed, 1, '/old.php'), rule(SID.kept, 1, '/k')],
  [rule(SID.changed, 2, '/panel/gate.php'), rule(SID.kept, 1, '/k'), rule(SID.added, 1, '/new')],
];

/** An Emerging Threats-shaped archive: `rules/<member>.rules`. */
async function archive(member: string, rules: string[]) {
  const body = new TextEncoder().encode(`${rules.join('\n')}\n`);
  const tar = await packTar([
    { header: { name: `rules/${member}.rules`, size: body.length }, body },
  ]);
  return gzipSync(tar);
}

/** Serves one archive and its .md5 on 127.0.0.1, as ET's mirror does; `serve` swaps it. */
async function startMirror() {
  let files = new Map<string | undefined, Buffer>();
  const requests: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url);
    const file = files.get(request.url);
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': file.length }).end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/open/suricata-7.0/emerging.rules.tar.gz`,
    checksumUrl: `${base}/open/suricata-7.0/emerging.rules.tar.gz.md5`,
    requests,
    serve(bytes: Buffer) {
      const md5 = createHash('md5').update(bytes).digest('hex');
      files = new Map([
        ['/open/suricata-7.0/emerging.rules.tar.gz', bytes],
        ['/open/suricata-7.0/emerging.rules.tar.gz.md5', Buffer.from(`${md5}\n`)],
      ]);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

type Mirror = Awaited<ReturnType<typeof startMirror>>;

/** A sensor the test speaks for through the agent protocol. */
async function simulatedAgent(
  baseUrl: string,
  admin: string,
  { name, policyId }: { name: string; policyId: number },
) {
  const password = 'feed-sensor-2026';
  const device = await apiCall(baseUrl, admin, 'POST', 'devices/', {
    name,
    password,
    policy_id: policyId,
  });
  const login = await callApi(baseUrl, 'POST', 'agent/login', undefined, {
    device_id: device.id,
    password,
    agent_version: 'test',
  });
  const token = login.access_token;
  const local = { config_version: null, policy_version: null };
  return {
    device,
    /** One heartbeat; when told to, pulls the bundle and reports it applied. */
    async sync() {
      const reply = await apiCall(baseUrl, token, 'POST', 'agent/heartbeat', {
        state: 'running',
        local,
        agent_version: 'test',
      });
      if (!reply.pull) return { reply, bundle: null };
      const bundle = await apiCall(baseUrl, token, 'GET', 'agent/bundle');
      await apiCall(baseUrl, token, 'POST', 'agent/applied', {
        config_version: bundle.config_version,
        policy_version: bundle.policy_version,
        ok: true,
      });
      local.config_version = bundle.config_version;
      local.policy_version = bundle.policy_version;
      return { reply, bundle };
    },
    /** Sends one eve.json alert of this rule. */
    alert: ({ sid, rev, msg }: { sid: number; rev: number; msg: string }) =>
      apiCall(baseUrl, token, 'POST', 'agent/alerts', {
        seq: 1,
        events: [
          {
            timestamp: new Date().toISOString().replace('Z', '000+0000'),
            event_type: 'alert',
            src_ip: '10.0.0.5',
            src_port: 49152,
            dest_ip: '203.0.113.9',
            dest_port: 80,
            proto: 'TCP',
            alert: {
              action: 'allowed',
              gid: 1,
              signature_id: sid,
              rev,
              signature: msg,
              category: 'A Network Trojan was detected',
              severity: 1,
            },
          },
        ],
      }),
  };
}

/** Arranges a source with two finished updates through the API (never to check the UI). */
async function sourceWithTwoUpdates(
  baseUrl: string,
  admin: string,
  mirror: Mirror,
  { member, days }: { member: string; days: string[][] },
) {
  const finished = async (source: { id: number }, updateId: number) => {
    for (;;) {
      const update = await apiCall(
        baseUrl,
        admin,
        'GET',
        `rulesources/${source.id}/updates/${updateId}`,
      );
      if (update.status !== 'queued' && update.status !== 'running') return update;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  mirror.serve(await archive(member, days[0] ?? []));
  const source = await apiCall(baseUrl, admin, 'POST', 'rulesources/', {
    name: `Mirror ${member}`,
    url: mirror.url,
    schedule: { kind: 'manual' },
  });
  for (const day of days) {
    mirror.serve(await archive(member, day));
    const { update_id } = await apiCall(baseUrl, admin, 'POST', `rulesources/${source.id}/update`);
    const update = await finished(source, update_id);
    assert.equal(update.status, 'succeeded', update.error ?? '');
  }
  return source;
}

test('rule sources: ET Open from the catalogue, two updates, the changelog diff, a device gets the new policy', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const stamp = Date.now().toString(36);
  const member = `e2e-feed-${stamp}`;
  const SID = sidsFrom(9_170_000);
  const DAYS = daysOf(SID);
  const mirror = await startMirror();
  try {
    mirror.serve(await archive(member, DAYS[0] ?? []));
    const admin = await api.token(ADMIN.email, ADMIN.password);
    const name = `ET Open ${stamp}`;

    // Add ET Open from the catalogue, its URLs edited to the local mirror.
    await openSignedIn(page, '/policies?tab=sources');
    await page.getByRole('button', { name: 'Add from catalogue' }).click();
    const catalogue = page.getByRole('dialog', { name: 'Rule source catalogue' });
    await catalogue.getByRole('button', { name: 'Add ET Open' }).click();
    const form = page.getByRole('dialog', { name: 'Add rule source' });
    assert.match(
      await form.getByLabel('URL', { exact: true }).inputValue(),
      /^https:\/\/rules\.emergingthreats\.net\/open\/suricata-7\.0\/emerging\.rules\.tar\.gz$/,
    );
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('URL', { exact: true }).fill(mirror.url);
    await form.getByLabel('Checksum URL', { exact: true }).fill(mirror.checksumUrl);
    await form.getByRole('button', { name: 'Save' }).click();
    await waitForNotice(page, 'Rule source added');

    // A new source with a schedule is due at once: its first update starts by itself.
    const row = page.getByRole('row', { name: new RegExp(name) });
    await visible(row.getByTestId('update-status').getByText('Updated', { exact: true }), 30_000);
    await visible(row.getByRole('cell', { name: '3', exact: true }));
    await shot('rule-sources-list');

    const sources = await apiCall(baseUrl, admin, 'GET', 'rulesources/?limit=100&offset=0');
    const source = sources.data.find((s: { name: string }) => s.name === name);
    const groups = await apiCall(baseUrl, admin, 'GET', 'groups/?limit=999999&offset=0');
    const group = groups.data.find((g: { source_id: number }) => g.source_id === source.id);
    assert.equal(group?.name, member, 'the archive member became the source’s group');
    const policy = await apiCall(baseUrl, admin, 'POST', 'policies/', {
      name: `Feed ${stamp}`,
      group_ids: [group.id],
    });
    const agent = await simulatedAgent(baseUrl, admin, {
      name: `feed-sensor-${stamp}`,
      policyId: policy.id,
    });
    const first = await agent.sync();
    assert.ok(first.bundle !== null, 'a new device pulls its bundle');
    assert.match(first.bundle.rules, new RegExp(`sid:${SID.changed}; rev:1;`));
    const firstVersion = first.bundle.policy_version;

    // The Rule groups tab names the source that keeps the group.
    await page.goto('/policies?tab=groups');
    await visible(
      page.getByRole('row', { name: new RegExp(member) }).getByText(name, { exact: true }),
    );

    // The next day: one rule changed, one removed, one added.
    mirror.serve(await archive(member, DAYS[1] ?? []));
    await page.goto('/policies?tab=sources');
    await row.getByRole('button', { name: `Update now: ${name}` }).click();
    await waitForNotice(page, 'Rules updated: 1 added, 1 removed, 1 changed', 30_000);

    // Its history, newest first, and the newest update's changelog.
    await row.getByRole('link', { name }).click();
    const history = page.getByRole('table', { name: 'Updates' });
    await visible(history.getByRole('link', { name: /^Changelog of update \d+$/ }));
    assert.equal(await history.getByRole('link', { name: /^Changelog of update/ }).count(), 2);
    await history
      .getByRole('link', { name: /^Changelog of update/ })
      .first()
      .click();
    await visible(page.getByRole('button', { name: 'Changed (1)' }));
    await visible(page.getByRole('button', { name: 'Added (1)' }));
    await visible(page.getByRole('button', { name: 'Removed (1)' }));
    const changes = page.getByRole('table', { name: 'Changelog' });
    await visible(changes.getByText(`E2E feed ${SID.changed}`, { exact: true }));
    await changes.getByRole('button', { name: `Diff of rule ${SID.changed}` }).click();
    const before = page.getByLabel('Before', { exact: true });
    const after = page.getByLabel('After', { exact: true });
    await visible(after);
    assert.deepEqual(await before.locator('del').allTextContents(), ['1']);
    assert.deepEqual(await after.locator('ins').allTextContents(), ['panel/', '2']);
    assert.equal(((await after.textContent()) ?? '').replace(/^\+/, ''), DAYS[1]?.[0]);
    await shot('rule-sources-changelog');

    // Only the rules that changed: the kind filter asks the server for removed ones.
    await page.getByRole('button', { name: 'Removed (1)' }).click();
    await visible(changes.getByText(`E2E feed ${SID.removed}`, { exact: true }));
    await changes
      .getByText(`E2E feed ${SID.changed}`, { exact: true })
      .waitFor({ state: 'detached' });
    assert.equal(await changes.getByTestId('rule-change').count(), 1);

    // The device is told of the new policy version and pulls the new rules.
    await page.goto('/devices');
    const deviceRow = page.getByRole('row', { name: new RegExp(agent.device.name) });
    await visible(deviceRow.getByText('Update Pending', { exact: true }));
    const second = await agent.sync();
    assert.ok(second.reply.remote.policy_version > firstVersion, 'a new policy version');
    assert.equal(second.bundle?.policy_version, second.reply.remote.policy_version);
    assert.match(second.bundle.rules, new RegExp(`sid:${SID.changed}; rev:2;`));
    assert.match(second.bundle.rules, new RegExp(`sid:${SID.added}; rev:1;`));
    // A rule gone from the source stays rendered, marked removed, as after an upload.
    await page.reload();
    await visible(deviceRow.getByTestId('device-status').getByText('Online', { exact: true }));
    assert.equal(await deviceRow.getByText('Update Pending', { exact: true }).count(), 0);

    // The alert of the changed rule links to its changelog entry, opened on that rule.
    const msg = `E2E feed ${SID.changed}`;
    await agent.alert({ sid: SID.changed, rev: 2, msg });
    await page.goto('/alerts');
    await page.getByRole('button', { name: msg }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Alert' });
    const note = drawer.getByTestId('rule-change-note');
    await visible(note.getByRole('link', { name: /^Changed in update \d+ on / }));
    await shot('rule-sources-alert-note');
    await note.getByRole('link').click();
    await visible(page.getByText(`Showing only rule ${SID.changed}.`));
    await visible(page.getByLabel('After', { exact: true }));
    assert.equal(await page.getByTestId('rule-change').count(), 1);

    // A third update finds the checksum unmoved: one small request, nothing else.
    const before3 = mirror.requests.length;
    await page.goto('/policies?tab=sources');
    await row.getByRole('button', { name: `Update now: ${name}` }).click();
    await waitForNotice(page, 'The source has not changed', 30_000);
    assert.deepEqual(mirror.requests.slice(before3), [
      '/open/suricata-7.0/emerging.rules.tar.gz.md5',
    ]);
  } finally {
    await mirror.close();
  }
});

test('rule sources: a Viewer reads sources, history and a diff without write actions; Arabic right to left', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const stamp = Date.now().toString(36);
  const mirror = await startMirror();
  try {
    const admin = await api.token(ADMIN.email, ADMIN.password);
    const SID = sidsFrom(9_180_000);
    const source = await sourceWithTwoUpdates(baseUrl, admin, mirror, {
      member: `viewer-feed-${stamp}`,
      days: daysOf(SID),
    });
    const email = uniqueEmail('viewer');
    await api.createUser(admin, { email, password: 'Viewer12!', role: 'Viewer' });
    await signIn(page, { email, password: 'Viewer12!' });
    await page.evaluate(() =>
      window.localStorage.setItem(
        'palisade.main',
        JSON.stringify({ drawer: 'shown', language: 'ar' }),
      ),
    );
    await page.goto('/policies?tab=sources');
    await visible(page.getByRole('tab', { name: 'مصادر القواعد' }));
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    const row = page.getByRole('row', { name: new RegExp(source.name) });
    await visible(row.getByText('محدَّث', { exact: true }));
    assert.equal(await page.getByRole('button', { name: 'إضافة من الفهرس' }).count(), 0);
    assert.equal(await row.getByRole('button').count(), 0);

    await row.getByRole('link', { name: source.name }).click();
    const history = page.getByRole('table', { name: 'التحديثات' });
    await history
      .getByRole('link', { name: /^سجل تغييرات التحديث/ })
      .first()
      .click();
    await page.getByRole('button', { name: `فروق القاعدة ${SID.changed}` }).click();
    const after = page.getByLabel('بعد', { exact: true });
    await visible(after);
    // The rule text reads left to right inside the right-to-left page.
    assert.equal(await after.getAttribute('dir'), 'ltr');
    assert.deepEqual(await after.locator('ins').allTextContents(), ['panel/', '2']);
    await shot('rule-sources-changelog-ar');
  } finally {
    await mirror.close();
  }
});

// The data table: server-side paging, sorting and search; 5000 virtualised rows; drag sort.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../lib/env.ts';
import { assert, signIn, visible } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

test('table: footer texts, sorting and search are sent to the server as list parameters', async ({
  page,
  api,
}) => {
  await signIn(page);
  const admin = await api.token('admin@example.com', 'Admin#2026');
  for (const name of ['zed', 'amy']) {
    await api
      .createUser(admin, { email: `${name}-${Date.now()}@example.com`, password: 'Sorting1!' })
      .catch(() => undefined);
  }
  const seen: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/users/') seen.push(url.searchParams);
  });
  await page.goto('/admin/users/all');
  await visible(page.getByText('Rows per page'));
  await page.getByRole('button', { name: 'E-mail' }).click();
  await page.waitForFunction(() => true);
  await visible(page.getByRole('row', { name: /amy-/ }));
  const sorted = seen.find((p) => p.get('sortBy') === 'email');
  assert.ok(sorted, 'sortBy=email sent');
  assert.equal(sorted.get('sortDesc'), 'false');
  assert.equal(sorted.get('offset'), '0');

  const searched = page.waitForResponse(
    (r) => new URL(r.url()).searchParams.get('filter') === 'zed',
  );
  await page.getByLabel('Search').fill('zed');
  await searched;
  await visible(page.getByRole('row', { name: /zed-/ }));
  assert.equal(await page.getByRole('row', { name: /amy-/ }).count(), 0);

  await page.getByLabel('Search').fill('no-such-user-anywhere');
  await visible(page.getByTestId('table-empty'));
  assert.equal(await page.getByTestId('table-empty').textContent(), 'No data');
  await page.getByLabel('Search').fill('');
  await visible(page.getByRole('row', { name: /amy-/ }));

  await page.getByRole('combobox').click();
  await visible(page.getByRole('option', { name: 'All' }));
  const everything = page.waitForResponse(
    (r) => new URL(r.url()).searchParams.get('limit') === '999999',
  );
  await page.getByRole('option', { name: 'All' }).click();
  await everything;
});

test('table: 5000 rows mount with a bounded number of DOM rows and scroll to the last', async ({
  page,
  shot,
  benchUrl,
}) => {
  await page.goto(benchUrl);
  const table = page.getByRole('table', { name: 'Table benchmark' });
  await visible(table.getByRole('cell', { name: 'ET SAMPLE rule number 1', exact: true }));
  const rows = await table.locator('tbody tr.data-row').count();
  assert.ok(rows > 5 && rows < 80, `rows in the DOM: ${rows}`);
  assert.equal(await table.getAttribute('aria-rowcount'), '5000');
  await table.evaluate((el) => {
    const scroller = el.parentElement!;
    scroller.scrollTop = scroller.scrollHeight;
  });
  await visible(table.getByRole('cell', { name: 'ET SAMPLE rule number 5000', exact: true }));
  assert.ok((await table.locator('tbody tr.data-row').count()) < 80);
  await shot('bench-table');
});

test('sortable table: dragging a row emits sorted with the new order', async ({
  page,
  benchUrl,
}) => {
  await page.goto(benchUrl);
  const table = page.getByRole('table', { name: 'Drag-sortable table' });
  const handles = table.getByRole('button', { name: 'Drag to reorder' });
  await visible(handles);
  await page.getByTestId('sorted-event').scrollIntoViewIfNeeded();
  const from = await handles.nth(0).boundingBox();
  const to = await handles.nth(2).boundingBox();
  if (!from || !to) throw new Error('the handles are not shown');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const x = from.x + from.width / 2;
  for (let step = 1; step <= 10; step += 1) {
    await page.mouse.move(x, from.y + from.height / 2 + ((to.y - from.y) * step) / 10);
  }
  await page.mouse.up();
  await visible(page.getByTestId('sorted-event').getByText('0→2: 2,3,1,4,5'));
  const first = await table.locator('tbody tr').first().getAttribute('data-row-id');
  assert.equal(first, '2');
});

test('table: the production console has no benchmark page, in its files or at /bench/table', async ({
  page,
}) => {
  const files = await readdir(path.join(ROOT, 'apps/web/dist'), { recursive: true });
  assert.deepEqual(
    files.filter((file) => file.includes('bench')),
    [],
  );
  await page.goto('/bench/table');
  await visible(page.getByRole('heading', { name: 'Sign in' }));
  assert.equal(await page.getByRole('table', { name: 'Table benchmark' }).count(), 0);
});

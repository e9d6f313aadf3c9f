// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Alert } from '@palisade/contract';
import { useQueryClient } from '@tanstack/react-query';
import { installFakeApi, renderScreen, type FakeCall } from '../../../testing/render';
import { alertsKey } from '../api/keys';
import { AlertsTable, type LiveMode } from './AlertsTable';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const alert = (id: number, second: number): Alert => ({
  id,
  device_id: 1,
  device: 'edge-1',
  time: `2026-05-01T10:00:${String(second).padStart(2, '0')}.000000Z`,
  gid: 1,
  sid: 2000 + id,
  rev: 1,
  msg: `signature ${id}`,
  category: '',
  severity: 2,
  action: 'allowed',
  proto: 'TCP',
  app_proto: null,
  src_ip: '10.0.0.5',
  src_port: 40000 + id,
  dest_ip: '192.0.2.9',
  dest_port: 80,
  acknowledged: false,
  starred: false,
});

const pageOf = (alerts: Alert[], total: number) => ({
  body: { data: alerts, recordsTotal: total, recordsTotalIsExact: true, next_cursor: null },
});

/** A fake server whose store grows: the list answers what is stored, `since` counts the newer. */
function server(initial: Alert[]) {
  const stored = [...initial];
  const api = installFakeApi({
    'GET alerts/': (call: FakeCall) => {
      const since = call.search.get('since');
      const matching = since === null ? stored : stored.filter((a) => a.time >= since);
      const sorted = [...matching].sort((a, b) => b.time.localeCompare(a.time));
      return pageOf(sorted.slice(0, Number(call.search.get('limit') ?? 100)), sorted.length);
    },
    'POST alerts/ack': { body: { msg: '1 alert(s) acknowledged' } },
  });
  return { api, add: (a: Alert) => stored.push(a) };
}

function Harness(props: { onOpen: (a: Alert) => void; initial?: LiveMode }) {
  const [live, setLive] = useState<LiveMode>(props.initial ?? { paused: false, auto: false });
  const client = useQueryClient();
  return (
    <>
      <input name="signature" aria-label="search" />
      {/* What the live channel does on an 'alerts' event (AlertsPage). */}
      <button
        type="button"
        onClick={() =>
          void client.invalidateQueries({
            queryKey: alertsKey,
            predicate: (q) => q.queryKey[1] !== 'list',
          })
        }
      >
        live event
      </button>
      <AlertsTable
        filters={{}}
        canWrite
        onOpen={props.onOpen}
        onPivot={() => undefined}
        live={live}
        onLiveChange={setLive}
        keyboard
      />
    </>
  );
}

const rowNames = () => screen.getAllByTestId('alert-open').map((button) => button.textContent);

describe('the alerts list', () => {
  it('moves with j/k, opens with Enter, acknowledges with e, and / goes to the search', async () => {
    const { api } = server([alert(1, 1), alert(2, 2), alert(3, 3)]);
    const onOpen = vi.fn();
    renderScreen(<Harness onOpen={onOpen} />);
    await screen.findByText('signature 3');
    const table = screen.getByRole('table', { name: 'Alerts' });
    const active = () => within(table).queryAllByRole('row', { selected: true });

    fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(active()[0]?.textContent).toContain('signature 3'));
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(active()[0]?.textContent).toContain('signature 1'));
    fireEvent.keyDown(document.body, { key: 'k' });
    await waitFor(() => expect(active()[0]?.textContent).toContain('signature 2'));
    expect(active()).toHaveLength(1);

    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));

    fireEvent.keyDown(document.body, { key: 'e' });
    await waitFor(() => expect(api.calls.some((c) => c.path === 'alerts/ack')).toBe(true));
    expect(api.calls.find((c) => c.path === 'alerts/ack')?.body).toEqual({
      ids: [2],
      acknowledged: true,
    });

    fireEvent.keyDown(document.body, { key: '/' });
    const search = screen.getByRole('textbox', { name: 'search' });
    expect(document.activeElement).toBe(search);
    // Typed into the search, j is a letter, not a move.
    fireEvent.keyDown(search, { key: 'j' });
    expect(active()[0]?.textContent).toContain('signature 2');
  });

  it('holds new alerts behind "New alerts: N" until asked; paused, it does not look', async () => {
    const { api, add } = server([alert(1, 1), alert(2, 2)]);
    renderScreen(<Harness onOpen={() => undefined} />);
    await screen.findByText('signature 2');
    expect(rowNames()).toEqual(['signature 2', 'signature 1']);

    add(alert(3, 3));
    add(alert(4, 4));
    fireEvent.click(screen.getByRole('button', { name: 'live event' }));
    const banner = await screen.findByRole('button', { name: 'New alerts: 2' });
    // The rows on screen did not move.
    expect(rowNames()).toEqual(['signature 2', 'signature 1']);
    // It counted after the newest alert shown, to the microsecond.
    const probe = api.calls.filter((c) => c.search.get('since') !== null).at(-1);
    expect(probe?.search.get('since')).toBe('2026-05-01T10:00:02.000001Z');

    fireEvent.click(banner);
    await waitFor(() =>
      expect(rowNames()).toEqual(['signature 4', 'signature 3', 'signature 2', 'signature 1']),
    );
    await waitFor(() => expect(screen.queryByTestId('alerts-new')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Pause live updates' }));
    expect(screen.getByText('Live updates paused')).toBeTruthy();
    add(alert(5, 5));
    fireEvent.click(screen.getByRole('button', { name: 'live event' }));
    expect(screen.queryByTestId('alerts-new')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resume live updates' }));
    await screen.findByRole('button', { name: 'New alerts: 1' });
  });

  it('inserts new alerts at once in auto mode at the top of the list', async () => {
    const { add } = server([alert(1, 1)]);
    renderScreen(<Harness onOpen={() => undefined} initial={{ paused: false, auto: true }} />);
    await screen.findByText('signature 1');
    add(alert(2, 2));
    fireEvent.click(screen.getByRole('button', { name: 'live event' }));
    await screen.findByText('signature 2');
    expect(rowNames()).toEqual(['signature 2', 'signature 1']);
  });
});

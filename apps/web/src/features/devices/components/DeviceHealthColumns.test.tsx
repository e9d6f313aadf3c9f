// @vitest-environment jsdom
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DataTable } from '../../../components/data-table/DataTable';
import { initialTableState } from '../../../components/data-table/list-params';
import { device, sensor } from '../../../testing/devices';
import { TestProviders } from '../../../testing/providers';
import { useDeviceColumns } from './useDeviceColumns';

afterEach(cleanup);

// jsdom lays nothing out: give boxes a size, so the virtualised table draws its rows.
const sized = ['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const;
const saved = sized.map((key) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, key));
beforeAll(() => {
  for (const key of sized) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => 800 });
  }
});
afterAll(() => {
  sized.forEach((key, i) => {
    const descriptor = saved[i];
    if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
    else Reflect.deleteProperty(HTMLElement.prototype, key);
  });
});

const TOOLS = {
  profiles: [],
  policies: [],
  firewalls: [],
  canWrite: false,
  canUpgrade: false,
  canOverrideLockout: false,
};
const NOOP = () => undefined;
const ACTIONS = { enrol: NOOP, flush: NOOP, edit: NOOP, remove: NOOP, upgrade: NOOP };

const DEVICES = [
  device(1, 'calm', { sensor: sensor({}), health: { status: 'ok', reasons: [] } }),
  device(2, 'dropping', {
    sensor: sensor({ drop_percent: 7.5 }),
    health: { status: 'degraded', reasons: ['drops'] },
  }),
  device(3, 'broken', {
    sensor: sensor({ rules_failed: 11, rules_loaded: 17_674 }),
    health: { status: 'degraded', reasons: ['rules_failed'] },
  }),
  device(4, 'old-agent', {}),
];

function Table() {
  const [state, setState] = useState(() => initialTableState(25, []));
  const columns = useDeviceColumns({
    tools: TOOLS,
    actions: ACTIONS,
    selection: undefined,
    serverAgentVersion: '0.3.0',
  });
  return (
    <DataTable
      label="Devices"
      columns={columns}
      rows={DEVICES}
      total={DEVICES.length}
      getRowId={(d) => String(d.id)}
      state={state}
      onStateChange={setState}
    />
  );
}

const rowOf = (name: string) => {
  const row = screen.getByRole('link', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
};

describe('the devices list health columns', () => {
  it('shows drops, alert rate and rules, and marks unhealthy sensors', () => {
    render(
      <MemoryRouter>
        <TestProviders>
          <Table />
        </TestProviders>
      </MemoryRouter>,
    );
    for (const header of ['Drops', 'Alerts/min', 'Rules']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    }
    const calm = rowOf('calm');
    expect(calm.getByText('0.25 %')).toBeTruthy();
    expect(calm.getByText('12.5')).toBeTruthy();
    expect(calm.getByText('35,671')).toBeTruthy();
    expect(calm.queryByTestId('device-degraded')).toBeNull();

    const dropping = rowOf('dropping');
    expect(dropping.getByText('7.5 %')).toBeTruthy();
    expect(dropping.getByTestId('device-degraded').textContent).toBe('Degraded');

    const broken = rowOf('broken');
    expect(broken.getByText('11 failed')).toBeTruthy();
    expect(broken.getByTestId('device-degraded')).toBeTruthy();

    // An agent that reports no Suricata stats: dashes, and not marked unhealthy.
    const old = rowOf('old-agent');
    expect(old.getAllByText('—').length).toBeGreaterThanOrEqual(3);
    expect(old.queryByTestId('device-degraded')).toBeNull();
    // The name opens the device's own page.
    expect(screen.getByRole('link', { name: 'broken' }).getAttribute('href')).toBe('/devices/3');
  });
});

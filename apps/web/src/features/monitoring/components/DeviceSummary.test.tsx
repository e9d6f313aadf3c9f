// @vitest-environment jsdom
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { Device } from '@palisade/contract';
import { device, sensor } from '../../../testing/devices';
import { TestProviders } from '../../../testing/providers';
import { DeviceSummary } from './DeviceSummary';

afterEach(cleanup);

const show = (d: Device) =>
  render(
    <MemoryRouter>
      <TestProviders>
        <DeviceSummary device={d} />
      </TestProviders>
    </MemoryRouter>,
  );

describe('the device page summary', () => {
  it('says why a sensor is degraded, with the rules the engine could not load', () => {
    show(
      device(7, 'edge-7', {
        sensor: sensor({
          drop_percent: 7.5,
          rules_failed: 2,
          rule_errors: ['rule 2019401: unknown keyword "ja4.hash"', 'rule 2019402: bad pcre'],
        }),
        health: { status: 'degraded', reasons: ['drops', 'rules_failed'] },
      }),
    );
    const notice = screen.getByTestId('device-health-degraded');
    expect(notice.textContent).toContain('Sensor degraded:');
    expect(notice.textContent).toContain('drops 7.5 % of captured packets');
    expect(notice.textContent).toContain('Suricata failed to load 2 rules');
    const errors = screen.getByTestId('device-rule-errors');
    expect([...errors.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'rule 2019401: unknown keyword "ja4.hash"',
      'rule 2019402: bad pcre',
    ]);
  });

  it('shows no notice for a healthy sensor, nor one that has not reported', () => {
    show(device(8, 'calm', { sensor: sensor({}), health: { status: 'ok', reasons: [] } }));
    show(device(9, 'new', {}));
    expect(screen.queryByTestId('device-health-degraded')).toBeNull();
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderScreen } from '../../../testing/render';
import { HitsCell } from './RuleHits';

afterEach(cleanup);

describe('the hits cell of the ruleset editor', () => {
  it('shows packets compactly with the bytes in its title, and marks an idle rule', () => {
    renderScreen(<HitsCell hits={{ packets: 1234, bytes: 98_000, reported: true, idle: false }} />);
    const cell = screen.getByTestId('rule-hits');
    expect(cell.textContent).toBe('1.2K');
    expect(cell.getAttribute('title')).toMatch(/98,000 bytes/);
    expect(screen.queryByTestId('rule-idle')).toBeNull();
    cleanup();
    renderScreen(<HitsCell hits={{ packets: 0, bytes: 0, reported: true, idle: true }} />);
    expect(screen.getByTestId('rule-idle').textContent).toBe('No match in 30 days');
  });

  it('shows a dash for a rule no device reported', () => {
    renderScreen(<HitsCell hits={{ packets: 0, bytes: 0, reported: false, idle: false }} />);
    expect(screen.getByTestId('rule-hits').textContent).toBe('–');
    expect(screen.queryByTestId('rule-idle')).toBeNull();
  });
});

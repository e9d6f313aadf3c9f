// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { RuleDetail } from '@palisade/contract';
import { installFakeApi, renderScreen } from '../../../testing/render';
import { RuleTextDialog } from './RuleTextDialog';

const text =
  'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET POLICY curl"; sid:2013028; rev:4;)';
const rule: RuleDetail = {
  id: 9,
  gid: 1,
  sid: 2013028,
  rev: 4,
  action: 'alert',
  proto: 'http',
  src_addr: '$HOME_NET',
  src_port: 'any',
  direction: '->',
  dst_addr: '$EXTERNAL_NET',
  dst_port: 'any',
  msg: 'ET POLICY curl',
  classtype: 'policy-violation',
  priority: 2,
  enabled: true,
  removed: false,
  source: 'emerging-policy.rules',
  groups: [],
  updated_at: '2025-03-07T09:05:07Z',
  text,
  metadata: [],
  references: [],
  flowbits: [],
};

// The Arabic page: right to left, and text aligned to the right unless a box says otherwise.
beforeEach(() => {
  document.documentElement.dir = 'rtl';
  document.body.style.textAlign = 'right';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.documentElement.dir = '';
  document.body.style.textAlign = '';
});

describe('a rule’s text in the right-to-left page', () => {
  it('reads left to right from the start edge', async () => {
    installFakeApi({ 'POST rulesmulti': { body: { data: [rule] } } });
    renderScreen(<RuleTextDialog rule={rule} onClose={() => undefined} />);
    const block = await screen.findByTestId('rule-text');
    expect(block.textContent).toContain(text);
    expect(block.getAttribute('dir')).toBe('ltr');
    expect(getComputedStyle(block).textAlign).toBe('start');
  });
});

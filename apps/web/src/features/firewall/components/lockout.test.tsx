// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FirewallRuleset } from '@palisade/contract';
import { renderGuarded } from '../../../testing/render-guarded';
import { RulesetEditor } from './RulesetEditor';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RULESET: FirewallRuleset = {
  id: 7,
  name: 'Edge',
  description: '',
  policies: { input: 'drop', forward: 'drop', output: 'accept' },
  rules: [],
  device_count: 1,
  updated_at: '2026-11-25T12:00:00Z',
};
const REFUSAL =
  'router-1 would lose its connection to the server (10.0.0.5:8443/tcp): the input policy drops ' +
  'the replies from 10.0.0.5:8443: add an input rule accepting states established,related';

/** What the save's preview finds: the device it would cut off. */
const PREVIEW = {
  deploy_mode: 'immediate',
  devices_reached: 1,
  config_changed: 1,
  policy_changed: 0,
  devices: [
    {
      id: 3,
      name: 'router-1',
      policy: null,
      nftables_diff: { diff: '@@ -1,1 +1,1 @@\n-old\n+new\n', truncated: false },
      routes_diff: null,
      variables: null,
    },
  ],
  devices_truncated: false,
  lockout: [
    { device_id: 3, device_name: 'router-1', message: REFUSAL, problems: [], overridden: false },
  ],
};

/** The server: the preview, then the saves in order (the refusal, then the saved ruleset). */
function serve(): { bodies: unknown[] } {
  const bodies: unknown[] = [];
  const answers = [
    new Response(JSON.stringify({ msg: REFUSAL, code: 'lockout', details: [] }), { status: 422 }),
    new Response(JSON.stringify(RULESET), { status: 200 }),
  ];
  // Node's Request (which ky builds) needs an absolute URL; the console's are relative.
  const NodeRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://console.test') : input, init);
      }
    },
  );
  vi.stubGlobal('fetch', async (request: Request) => {
    const preview = request.url.endsWith('/preview');
    if (!preview) bodies.push(await request.clone().json());
    const answer = preview
      ? new Response(JSON.stringify(PREVIEW), { status: 200 })
      : (answers.shift() ?? new Response('{}', { status: 500 }));
    answer.headers.set('content-type', 'application/json');
    return answer;
  });
  return { bodies };
}

/** Save, then the review names the device the change would cut off; Confirm sends it. */
async function saveThroughReview() {
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  const review = await screen.findByRole('dialog', { name: 'Review changes' });
  expect(within(review).getByTestId('change-review-lockout').textContent).toBe(REFUSAL);
  fireEvent.click(within(review).getByRole('button', { name: 'Save and send to 1' }));
}

describe('a ruleset save the server refuses as a lock-out', () => {
  it('shows why, and an Administrator applies it anyway with the override', async () => {
    const { bodies } = serve();
    const onClose = vi.fn();
    renderGuarded(
      <RulesetEditor ruleset={RULESET} readOnly={false} canOverrideLockout onClose={onClose} />,
    );
    await saveThroughReview();
    const refused = await screen.findByRole('dialog', {
      name: 'This change would cut a device off',
    });
    expect(within(refused).getByTestId('lockout-message').textContent).toBe(REFUSAL);
    fireEvent.click(within(refused).getByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ override_lockout: false });
    expect(bodies[1]).toMatchObject({ override_lockout: true });
  });

  it('an Operator sees the refusal without Apply anyway', async () => {
    serve();
    renderGuarded(
      <RulesetEditor
        ruleset={RULESET}
        readOnly={false}
        canOverrideLockout={false}
        onClose={vi.fn()}
      />,
    );
    await saveThroughReview();
    const refused = await screen.findByRole('dialog', {
      name: 'This change would cut a device off',
    });
    expect(within(refused).queryByRole('button', { name: 'Apply anyway' })).toBeNull();
    expect(within(refused).getByText(/Only an Administrator/)).toBeTruthy();
  });
});

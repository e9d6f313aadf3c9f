import { describe, expect, it } from 'vitest';
import { decideGate, type CanaryState, type GateParameters } from './canary-gate.js';

const MOVED = new Date('2026-11-27T10:00:00Z');
const at = (seconds: number) => new Date(MOVED.getTime() + seconds * 1000);
const PARAMETERS: GateParameters = { waitMinutes: 10, alertFactor: 3, heartbeatGraceSeconds: 120 };
const TARGET = { config_version: 4, policy_id: 7, policy_version: 9 };

function canary(changes: Partial<CanaryState> = {}): CanaryState {
  return {
    deviceId: 1,
    deviceName: 'edge-1',
    target: TARGET,
    movedAt: MOVED,
    local: { config_version: 4, policy_version: 9 },
    lastSeen: at(590),
    applyError: null,
    alertsBefore: 10,
    alertsAfter: 10,
    ...changes,
  };
}

describe('decideGate', () => {
  const cases: {
    name: string;
    canaries: CanaryState[];
    now: Date;
    expected: string;
  }[] = [
    {
      name: 'a healthy canary before the wait is over',
      canaries: [canary({ lastSeen: at(100) })],
      now: at(120),
      expected: 'wait',
    },
    {
      name: 'a healthy canary once the wait is over',
      canaries: [canary()],
      now: at(600),
      expected: 'pass',
    },
    { name: 'no canaries never passes', canaries: [], now: at(600), expected: 'wait' },
    {
      name: 'a canary silent past the grace fails before the wait is over',
      canaries: [canary({ lastSeen: at(-5) })],
      now: at(121),
      expected: 'fail:heartbeat_lost',
    },
    {
      name: 'a canary that never sent a heartbeat is given the grace from its move',
      canaries: [canary({ lastSeen: null, local: { config_version: null, policy_version: null } })],
      now: at(119),
      expected: 'wait',
    },
    {
      name: 'a canary whose agent reported a failed apply fails at once',
      canaries: [
        canary({
          lastSeen: at(30),
          applyError: 'nft: syntax error',
          local: { config_version: 3, policy_version: 9 },
        }),
      ],
      now: at(31),
      expected: 'fail:apply_failed',
    },
    {
      name: 'an old error does not count once the change is applied',
      canaries: [canary({ applyError: 'earlier failure' })],
      now: at(600),
      expected: 'pass',
    },
    {
      name: 'a canary still on its old config when the wait is over',
      canaries: [canary({ local: { config_version: 3, policy_version: 9 } })],
      now: at(600),
      expected: 'fail:not_applied',
    },
    {
      name: 'a canary still on its old policy when the wait is over',
      canaries: [canary({ local: { config_version: 4, policy_version: 8 } })],
      now: at(600),
      expected: 'fail:not_applied',
    },
    {
      name: 'not applied yet is no failure during the wait',
      canaries: [canary({ lastSeen: at(60), local: { config_version: 3, policy_version: 8 } })],
      now: at(60),
      expected: 'wait',
    },
    {
      name: 'alerts at three times the rate before pass',
      canaries: [canary({ alertsAfter: 30 })],
      now: at(600),
      expected: 'pass',
    },
    {
      name: 'alerts over three times the rate before fail',
      canaries: [canary({ alertsAfter: 31 })],
      now: at(600),
      expected: 'fail:alert_rate',
    },
    {
      name: 'the rate is per time: a gate run late allows as many more alerts',
      canaries: [canary({ alertsAfter: 60, lastSeen: at(1190) })],
      now: at(1200),
      expected: 'pass',
    },
    {
      name: 'a canary quiet before may raise a few alerts',
      canaries: [canary({ alertsBefore: 0, alertsAfter: 3 })],
      now: at(600),
      expected: 'pass',
    },
    {
      name: 'a canary quiet before fails on many alerts',
      canaries: [canary({ alertsBefore: 0, alertsAfter: 4 })],
      now: at(600),
      expected: 'fail:alert_rate',
    },
    {
      name: 'one failing canary among healthy ones fails the gate, naming it',
      canaries: [
        canary(),
        canary({ deviceId: 2, deviceName: 'edge-2', lastSeen: at(100) }),
        canary({ deviceId: 3 }),
      ],
      now: at(600),
      expected: 'fail:heartbeat_lost:2',
    },
    {
      name: 'the gate waits for a canary moved later',
      canaries: [canary(), canary({ deviceId: 2, movedAt: at(300) })],
      now: at(600),
      expected: 'wait',
    },
  ];

  for (const { name, canaries, now, expected } of cases) {
    it(name, () => {
      const decision = decideGate(canaries, PARAMETERS, now);
      const shown =
        decision.decision === 'fail'
          ? `fail:${decision.condition}${expected.split(':').length > 2 ? `:${decision.deviceId}` : ''}`
          : decision.decision;
      expect(shown).toBe(expected);
    });
  }

  it('says which device failed and why, in words', () => {
    const decision = decideGate(
      [canary({ deviceId: 5, deviceName: 'edge-5', alertsBefore: 6, alertsAfter: 60 })],
      PARAMETERS,
      at(600),
    );
    expect(decision).toEqual({
      decision: 'fail',
      deviceId: 5,
      deviceName: 'edge-5',
      condition: 'alert_rate',
      detail: '360.0 alerts an hour since the deploy, 36.0 before (allowed 3×)',
    });
  });
});

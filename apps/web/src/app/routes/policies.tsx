// The /policies screen: Policies, Rule groups, Rules, Rule sources and Rule analytics as tabs
// (?tab=policies|groups|rules|sources|analytics), so the spec's route table stays exact. The composition root wires the rules feature's
// pieces into the policies feature, which must not import it (STYLE.md §1).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ALL_ROWS, initialTableState } from '../../components/data-table/list-params';
import { PageShell } from '../../components/page/PageShell';
import { useMe } from '../../features/auth/api/me';
import { alertDeviceOptionsQueryOptions } from '../../features/alerts/api/device-options';
import { ExpiringList } from '../../features/expiry/components/ExpiringList';
import { policiesListQueryOptions } from '../../features/policies/api/list-policies';
import { PoliciesTab } from '../../features/policies/components/PoliciesTab';
import type { PolicyAccess, PolicyTools } from '../../features/policies/components/tools';
import { groupsListQueryOptions } from '../../features/rules/api/list-groups';
import { sourcesListQueryOptions } from '../../features/rule-sources/api/list-sources';
import { RuleChangeNote } from '../../features/rule-sources/components/RuleChangeNote';
import { RuleSourcesTab } from '../../features/rule-sources/components/RuleSourcesTab';
import { RuleAnalyticsTab } from '../../features/rule-analytics/components/RuleAnalyticsTab';
import { useTuneRule } from '../../features/rule-analytics/components/useTuneRule';
import { fetchRules } from '../../features/rules/api/rules-multi';
import { GroupsTab } from '../../features/rules/components/GroupsTab';
import { RulePicker } from '../../features/rules/components/RulePicker';
import { RulesTab } from '../../features/rules/components/RulesTab';
import { usersListQueryOptions } from '../../features/users/api/list-users';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';
import { hasAdminAccess } from '../access';

const TABS = ['policies', 'groups', 'rules', 'sources', 'analytics'] as const;
type PoliciesTabName = (typeof TABS)[number];

const isTab = (value: string | null): value is PoliciesTabName =>
  value !== null && (TABS as readonly string[]).includes(value);

const ALL_USERS = initialTableState(ALL_ROWS, [{ id: 'email', desc: false }]);
const ALL_SOURCES = initialTableState(ALL_ROWS, [{ id: 'name', desc: false }]);

export function Component() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: PoliciesTabName = isTab(params.get('tab'))
    ? (params.get('tab') as PoliciesTabName)
    : 'policies';
  const user = useMe();
  const { authDisabled } = useStore(session);
  const isAdmin = hasAdminAccess(user, authDisabled);
  // Viewers only read (the server refuses their writes with 403, which would log them out).
  const canWrite = authDisabled || (user !== null && user.role !== 'Viewer');

  const groups = useQuery(groupsListQueryOptions);
  const users = useQuery({
    ...usersListQueryOptions(ALL_USERS),
    enabled: isAdmin && tab === 'policies',
  });
  // The Rule groups tab names the source that keeps a group.
  const sources = useQuery({ ...sourcesListQueryOptions(ALL_SOURCES), enabled: tab === 'groups' });
  const analytics = tab === 'analytics';
  const devices = useQuery({ ...alertDeviceOptionsQueryOptions, enabled: analytics });
  const policies = useQuery({ ...policiesListQueryOptions, enabled: analytics });
  // A noisy rule's "Tune" opens its newest alert, whose drawer backtests the tuning.
  const tune = useTuneRule();
  const sourceName = useCallback(
    (id: number) => sources.data?.data.find((source) => source.id === id)?.name,
    [sources.data],
  );
  const tools = useMemo<PolicyTools>(
    () => ({
      groups: (groups.data?.data ?? []).map((g) => ({ id: g.id, name: g.name })),
      groupsLoading: groups.isPending,
      users: isAdmin
        ? (users.data?.data ?? []).map((u) => ({ id: u.id, email: u.email }))
        : undefined,
      RulePicker,
      fetchRules,
    }),
    [groups.data, groups.isPending, users.data, isAdmin],
  );
  const access = useMemo<PolicyAccess>(() => ({ canWrite, isAdmin }), [canWrite, isAdmin]);
  const labels: Record<PoliciesTabName, string> = {
    policies: t('policies.title'),
    groups: t('groups.title'),
    rules: t('rules.title'),
    sources: t('ruleSources.title'),
    analytics: t('ruleAnalytics.tab'),
  };

  return (
    <PageShell title={t('nav.policies')}>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: PoliciesTabName) => setParams({ tab: next })}
          aria-label={t('nav.policies')}
        >
          {TABS.map((name) => (
            <Tab key={name} value={name} label={labels[name]} id={`policies-tab-${name}`} />
          ))}
        </Tabs>
      </Box>
      <div role="tabpanel" aria-labelledby={`policies-tab-${tab}`}>
        {tab === 'policies' && (
          <>
            <ExpiringList />
            <PoliciesTab tools={tools} access={access} />
          </>
        )}
        {tab === 'groups' && (
          <GroupsTab canWrite={canWrite} sourceName={sourceName} RuleNote={RuleChangeNote} />
        )}
        {tab === 'rules' && <RulesTab canWrite={canWrite} RuleNote={RuleChangeNote} />}
        {tab === 'sources' && <RuleSourcesTab canWrite={canWrite} />}
        {analytics && (
          <RuleAnalyticsTab
            devices={devices.data ?? []}
            policies={(policies.data?.data ?? []).map((p) => ({ id: p.id, name: p.name }))}
            {...(canWrite ? { onTune: tune } : {})}
          />
        )}
      </div>
    </PageShell>
  );
}

import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { PageShell } from '../../../components/page/PageShell';
import { NetworkTab, type DeviceChoice } from './NetworkTab';
import { RulesetsTab } from './RulesetsTab';

const TABS = ['rulesets', 'assignments', 'network', 'profiles'] as const;
type FirewallTabName = (typeof TABS)[number];
const isTab = (value: string | null): value is FirewallTabName =>
  value !== null && (TABS as readonly string[]).includes(value);

interface FirewallPageProps {
  canWrite: boolean;
  /** Administrator: may save a ruleset that would cut a device off. */
  canOverrideLockout: boolean;
  devices: readonly DeviceChoice[];
  devicesLoading: boolean;
  /** Composed by the app from the devices and profiles features. */
  assignments: ReactNode;
  profiles: ReactNode;
  /** The firewall rules that expire soon, above the rulesets (from the expiry feature). */
  expiring?: ReactNode;
}

/**
 * /firewall (spec §2): rulesets, assigning firewall and policy to devices, per-device routes
 * and NAT, and the device variable profiles, as tabs (?tab=) so the route table stays exact.
 */
export function FirewallPage({
  canWrite,
  canOverrideLockout,
  devices,
  devicesLoading,
  assignments,
  profiles,
  expiring,
}: FirewallPageProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: FirewallTabName = isTab(raw) ? raw : 'rulesets';
  const device = Number(params.get('device'));
  const labels: Record<FirewallTabName, string> = {
    rulesets: t('firewall.tabs.rulesets'),
    assignments: t('firewall.tabs.assignments'),
    network: t('firewall.tabs.network'),
    profiles: t('firewall.tabs.profiles'),
  };
  return (
    <PageShell title={t('nav.firewall')}>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: FirewallTabName) => setParams({ tab: next })}
          aria-label={t('nav.firewall')}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {TABS.map((name) => (
            <Tab key={name} value={name} label={labels[name]} id={`firewall-tab-${name}`} />
          ))}
        </Tabs>
      </Box>
      <div role="tabpanel" aria-labelledby={`firewall-tab-${tab}`}>
        {tab === 'rulesets' && (
          <>
            {expiring}
            <RulesetsTab canWrite={canWrite} canOverrideLockout={canOverrideLockout} />
          </>
        )}
        {tab === 'assignments' && assignments}
        {tab === 'network' && (
          <NetworkTab
            devices={devices}
            devicesLoading={devicesLoading}
            canWrite={canWrite}
            canOverrideLockout={canOverrideLockout}
            deviceId={Number.isInteger(device) && device > 0 ? device : null}
            onDeviceChange={(id) => setParams({ tab: 'network', device: String(id) })}
          />
        )}
        {tab === 'profiles' && profiles}
      </div>
    </PageShell>
  );
}

import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { DaysToggle } from '../../../components/page/DaysToggle';
import { ruleAnalyticsQueryOptions, type WindowDays } from '../api/rule-analytics';
import { JumpedRulesTable } from './JumpedRulesTable';
import { NoisyRulesTable } from './NoisyRulesTable';
import { SilentRulesSection } from './SilentRulesSection';

interface RuleAnalyticsTabProps {
  devices: { id: number; name: string }[];
  policies: { id: number; name: string }[];
  /** Opens the rule's newest alert, whose drawer offers its backtested tuning (editors only). */
  onTune?: (sid: number, days: WindowDays) => void;
}

// Its chart library is loaded when a rule is first opened, not with the tab.
const RuleActivityDialog = lazy(() =>
  import('./RuleActivityDialog').then((module) => ({ default: module.RuleActivityDialog })),
);

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <Box component="section" sx={{ display: 'grid', gap: 1 }}>
    <Typography variant="h6" component="h2">
      {title}
    </Typography>
    {children}
  </Box>
);

/**
 * Rule analytics (issue 20): over 1, 7 or 30 days, fleet-wide or for one device, the noisiest
 * rules, those whose share jumped against their own baseline, and each policy's enabled rules
 * that never fired. A rule opens its days and devices.
 */
export function RuleAnalyticsTab({ devices, policies, onTune }: RuleAnalyticsTabProps) {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<WindowDays>(7);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [opened, setOpened] = useState<{ gid: number; sid: number } | null>(null);
  const overview = useQuery(ruleAnalyticsQueryOptions(days, deviceId));
  const data = overview.data;
  const error = overview.isError ? apiErrorMessage(overview.error) : null;
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <DaysToggle days={days} onChange={setDays} label={t('ruleAnalytics.window')} />
        <TextField
          select
          size="small"
          label={t('ruleAnalytics.device')}
          value={deviceId ?? ''}
          onChange={(event) =>
            setDeviceId(event.target.value === '' ? null : Number(event.target.value))
          }
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t('ruleAnalytics.allDevices')}</MenuItem>
          {devices.map((device) => (
            <MenuItem key={device.id} value={device.id}>
              {device.name}
            </MenuItem>
          ))}
        </TextField>
        {data && (
          <Typography variant="body2" data-testid="analytics-total">
            {t('ruleAnalytics.total', { alerts: data.total.toLocaleString(i18n.language) })}
          </Typography>
        )}
      </Box>
      {overview.isFetching && <LinearProgress aria-label={t('ruleAnalytics.loading')} />}
      {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
      <Section title={t('ruleAnalytics.noisiest')}>
        {data && data.noisiest.length === 0 ? (
          <Typography color="text.secondary">{t('ruleAnalytics.noAlerts')}</Typography>
        ) : (
          <NoisyRulesTable
            rules={data?.noisiest ?? []}
            onOpen={setOpened}
            {...(onTune ? { onTune: (sid: number) => onTune(sid, days) } : {})}
          />
        )}
      </Section>
      <Section title={t('ruleAnalytics.jumped')}>
        <Typography variant="body2" color="text.secondary">
          {t('ruleAnalytics.jumpedHelp')}
        </Typography>
        {data && data.jumped.length === 0 ? (
          <Typography color="text.secondary">{t('ruleAnalytics.noJumps')}</Typography>
        ) : (
          <JumpedRulesTable rules={data?.jumped ?? []} onOpen={setOpened} />
        )}
      </Section>
      <Section title={t('ruleAnalytics.silent')}>
        <SilentRulesSection days={days} policies={policies} />
      </Section>
      {opened !== null && (
        <Suspense fallback={<LinearProgress aria-label={t('ruleAnalytics.loading')} />}>
          <RuleActivityDialog rule={opened} days={days} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Box>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import type { AlertDetailData } from '../api/get-alert';
import { formatDateTime, formatPreciseDateTime } from '../../../lib/format-date';
import { EndpointPivots, PivotValue, type OnPivot } from './PivotValue';

/** The alert's fields as a list of terms, the values a pivot to the list filtered by them. */
export function AlertFields({ alert: a, onPivot }: { alert: AlertDetailData; onPivot: OnPivot }) {
  const { t, i18n } = useTranslation();
  const fields: { label: string; value: ReactNode }[] = [
    { label: t('alerts.columns.time'), value: formatPreciseDateTime(a.time, i18n.language) },
    {
      label: t('alerts.columns.device'),
      value: (
        <PivotValue field="device" value={String(a.device_id)} label={a.device} onPivot={onPivot} />
      ),
    },
    {
      label: t('alerts.detail.signature'),
      value:
        a.sid === null ? (
          '–'
        ) : (
          <>
            {a.gid ?? 1}:<PivotValue field="sid" value={String(a.sid)} onPivot={onPivot} />:
            {a.rev ?? 0}
          </>
        ),
    },
    { label: t('alerts.detail.category'), value: a.category || '–' },
    { label: t('alerts.detail.action'), value: a.action ?? '–' },
    {
      label: t('alerts.columns.proto'),
      value: (
        <>
          {a.proto === null ? '–' : <PivotValue field="proto" value={a.proto} onPivot={onPivot} />}
          {a.app_proto !== null && a.app_proto !== '' && ` / ${a.app_proto}`}
        </>
      ),
    },
    {
      label: t('alerts.columns.source'),
      value: <EndpointPivots side="src" ip={a.src_ip} port={a.src_port} onPivot={onPivot} />,
    },
    {
      label: t('alerts.columns.destination'),
      value: <EndpointPivots side="dest" ip={a.dest_ip} port={a.dest_port} onPivot={onPivot} />,
    },
    { label: t('alerts.detail.policy'), value: a.policy_name ?? t('alerts.detail.noPolicy') },
  ];
  if (a.acknowledged_at !== null)
    fields.push({
      label: t('alerts.detail.acknowledgedBy'),
      value: `${a.acknowledged_by ?? '–'}, ${formatDateTime(a.acknowledged_at, i18n.language)}`,
    });

  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 0.5,
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, overflowWrap: 'anywhere' },
      }}
    >
      {fields.map((f) => (
        <Box key={f.label} sx={{ display: 'contents' }}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </Box>
      ))}
    </Box>
  );
}

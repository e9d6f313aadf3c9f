import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { AlertDetailData } from '../api/get-alert';
import { relatedAlertsQueryOptions, type AlertRelatedData } from '../api/related-alerts';
import { decodePayload, hexDump, ruleReferences } from '../evidence';
import { formatDateTime } from '../../../lib/format-date';
import { endpoint } from '../format';

export const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box component="section">
    <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
      {title}
    </Typography>
    {children}
  </Box>
);

export const Code = ({
  text,
  testId,
  columns = false,
}: {
  text: string;
  testId: string;
  /** Text laid out in columns (a hex dump): lines never wrap, the box scrolls instead. */
  columns?: boolean;
}) => (
  <Box
    component="pre"
    dir="ltr"
    tabIndex={0}
    data-testid={testId}
    sx={{
      m: 0,
      p: 1.5,
      bgcolor: 'grey.100',
      borderRadius: 1,
      fontSize: 12,
      overflow: 'auto',
      maxHeight: 360,
      whiteSpace: columns ? 'pre' : 'pre-wrap',
      wordBreak: columns ? 'normal' : 'break-all',
      // 'start' of a dir="ltr" box: the right-to-left style plugin would turn 'left' into 'right'.
      textAlign: 'start',
    }}
  >
    {text}
  </Box>
);

/** The rule's references as links (CVE, URL, Bugtraq), the others as text. */
export function References({ ruleText }: { ruleText: string }) {
  const { t } = useTranslation();
  const references = ruleReferences(ruleText);
  if (references.length === 0) return null;
  return (
    <Section title={t('alerts.detail.references')}>
      <Box component="ul" sx={{ m: 0, paddingInlineStart: 2.5 }} data-testid="alert-references">
        {references.map((r) => (
          <li key={`${r.type},${r.value}`} dir="ltr">
            {r.type}:{' '}
            {r.href === null ? (
              r.value
            ) : (
              <Link href={r.href} target="_blank" rel="noopener noreferrer">
                {r.value}
              </Link>
            )}
          </li>
        ))}
      </Box>
    </Section>
  );
}

/** The payload as Suricata logged it: hex and ASCII side by side; or why there is none. */
export function Payload({ event }: { event: Record<string, unknown> }) {
  const { t } = useTranslation();
  const base64 = typeof event['payload'] === 'string' ? event['payload'] : null;
  const printable =
    typeof event['payload_printable'] === 'string' ? event['payload_printable'] : null;
  const bytes = base64 === null ? null : decodePayload(base64);
  return (
    <Section title={t('alerts.detail.payload')}>
      {bytes !== null ? (
        <Code text={hexDump(bytes)} testId="alert-payload-hex" columns />
      ) : printable !== null ? (
        <Code text={printable} testId="alert-payload-printable" />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('alerts.detail.noPayload')}
        </Typography>
      )}
      {event['payload_truncated'] === true && (
        <Typography variant="caption" color="text.secondary">
          {t('alerts.detail.payloadTruncated', { bytes: bytes?.length ?? 0 })}
        </Typography>
      )}
    </Section>
  );
}

/** The eve event's flow: its id and the counters Suricata gives with the alert. */
export function Flow({ alert }: { alert: AlertDetailData }) {
  const { t } = useTranslation();
  const flow = alert.event['flow'];
  const entries: [string, string][] = [];
  if (alert.flow_id !== null) entries.push([t('alerts.detail.flowId'), alert.flow_id]);
  if (typeof flow === 'object' && flow !== null && !Array.isArray(flow))
    for (const [key, value] of Object.entries(flow))
      if (typeof value !== 'object') entries.push([key, String(value)]);
  if (entries.length === 0) return null;
  return (
    <Section title={t('alerts.detail.flow')}>
      <Box
        component="dl"
        dir="ltr"
        data-testid="alert-flow"
        sx={{
          m: 0,
          textAlign: 'start',
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: 2,
          fontSize: 13,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0 },
        }}
      >
        {entries.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <dt>{key}</dt>
            <dd>{value}</dd>
          </Box>
        ))}
      </Box>
    </Section>
  );
}

/** Alerts of the same flow, and of the same two hosts within the window, each opening. */
export function Related({ id, onOpen }: { id: number; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const related = useQuery(relatedAlertsQueryOptions(id));
  return (
    <Section title={t('alerts.detail.related')}>
      {related.data === undefined ? (
        <Skeleton variant="rounded" height={60} />
      ) : (
        <>
          <RelatedList
            title={t('alerts.detail.sameFlow')}
            alerts={related.data.flow}
            testId="alert-related-flow"
            onOpen={onOpen}
          />
          <RelatedList
            title={t('alerts.detail.sameHosts', { minutes: related.data.window })}
            alerts={related.data.host_pair}
            testId="alert-related-hosts"
            onOpen={onOpen}
          />
        </>
      )}
    </Section>
  );
}

function RelatedList(props: {
  title: string;
  alerts: AlertRelatedData['flow'];
  testId: string;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ mb: 1 }} data-testid={props.testId}>
      <Typography variant="body2" color="text.secondary">
        {props.title}
      </Typography>
      {props.alerts.length === 0 ? (
        <Typography variant="body2">{t('alerts.detail.noneRelated')}</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, paddingInlineStart: 2.5, fontSize: 13 }}>
          {props.alerts.map((a) => (
            <li key={a.id}>
              <Link
                component="button"
                type="button"
                underline="hover"
                onClick={() => props.onOpen(a.id)}
                sx={{ textAlign: 'start' }}
              >
                {formatDateTime(a.time, i18n.language)} · {a.msg ?? t('alerts.noMessage')}
              </Link>{' '}
              <span dir="ltr">
                {endpoint(a.src_ip, a.src_port)} → {endpoint(a.dest_ip, a.dest_port)}
              </span>
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}

import { Fragment, useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Deployment, DeployedVersions, PendingDeployment } from '@palisade/contract';
import { LockoutDialog, lockoutMessage } from '../../../components/lockout/LockoutDialog';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { PageShell } from '../../../components/page/PageShell';
import { useLiveEvent } from '../../../lib/live-events';
import { formatDateTime } from '../../../lib/format-date';
import {
  deploySettingsQueryOptions,
  deploymentsKey,
  deploymentsListQueryOptions,
  pendingDeploymentsQueryOptions,
  useCreateDeployment,
} from '../api/deployments';
import { DeploySettingsForm } from './DeploySettingsForm';
import { PendingDeviceChange } from './PendingDeviceChange';

const versions = (v: DeployedVersions) =>
  `config ${v.config_version} · policy ${v.policy_id === null ? '—' : `#${v.policy_id} v${v.policy_version}`}`;

const STATUS_COLOR = { canary: 'warning', deployed: 'success', rolled_back: 'error' } as const;
const STATUS_LABEL = {
  canary: 'deploy.status.canary',
  deployed: 'deploy.status.deployed',
  rolled_back: 'deploy.status.rolled_back',
} as const;
const CONDITION_LABEL = {
  not_applied: 'deploy.condition.not_applied',
  apply_failed: 'deploy.condition.apply_failed',
  heartbeat_lost: 'deploy.condition.heartbeat_lost',
  alert_rate: 'deploy.condition.alert_rate',
} as const;

/**
 * /deploy: what saves wait for a deploy, per device; choose devices and canaries and deploy;
 * the deployments with their gate's result, live (the console's /events stream). Administrators
 * also choose the organization's deploy mode and canary gate here.
 */
export function DeployPage({ admin, canWrite }: { admin: boolean; canWrite: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const pending = useQuery(pendingDeploymentsQueryOptions);
  const history = useQuery(deploymentsListQueryOptions);
  const settings = useQuery({ ...deploySettingsQueryOptions, enabled: admin });
  const create = useCreateDeployment();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [canaries, setCanaries] = useState<ReadonlySet<number>>(new Set());
  // A deploy the lock-out check refused: why, until an Administrator overrides or cancels.
  const [lockout, setLockout] = useState<string | null>(null);
  // A deploy, a gate's decision or a save moves what this page shows: devices events say so.
  useLiveEvent(
    'devices',
    useCallback(() => void client.invalidateQueries({ queryKey: deploymentsKey }), [client]),
    { minIntervalMs: 1000 },
  );

  const rows = pending.data?.data ?? [];
  const toggle = (set: ReadonlySet<number>, id: number) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };
  const deploy = async (override = false) => {
    const device_ids = rows.map((r) => r.device_id).filter((id) => chosen.has(id));
    const canary = device_ids.filter((id) => canaries.has(id));
    try {
      await withProgress({ progress: 'deploy.deploying', success: 'deploy.deployed' }, () =>
        create.mutateAsync({
          device_ids,
          ...(canary.length > 0 ? { canary: { device_ids: canary } } : {}),
          ...(override ? { override_lockout: true } : {}),
        }),
      );
      setChosen(new Set());
      setCanaries(new Set());
    } catch (failure) {
      const refusal = lockoutMessage(failure);
      if (refusal === null) notifyApiError(failure);
      else setLockout(refusal);
    }
  };

  return (
    <PageShell
      title={t('deploy.title')}
      actions={
        canWrite && pending.data?.deploy_mode === 'staged' ? (
          <Button
            variant="contained"
            disabled={chosen.size === 0}
            loading={create.isPending}
            onClick={() => void deploy()}
            data-testid="deploy-button"
          >
            {canaries.size > 0
              ? t('deploy.deployCanary', { count: chosen.size, canaries: canaries.size })
              : t('deploy.deployCount', { count: chosen.size })}
          </Button>
        ) : undefined
      }
    >
      {admin && settings.data && <DeploySettingsForm settings={settings.data} />}
      {pending.data?.deploy_mode === 'immediate' ? (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('deploy.immediateInfo')}
        </Alert>
      ) : (
        <PendingTable
          rows={rows}
          chosen={chosen}
          canaries={canaries}
          disabled={!canWrite}
          onChoose={(id) => setChosen((set) => toggle(set, id))}
          onCanary={(id) => {
            setCanaries((set) => toggle(set, id));
            setChosen((set) => new Set(set).add(id));
          }}
        />
      )}
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t('deploy.history')}
      </Typography>
      <DeploymentList deployments={history.data?.data ?? []} />
      {lockout !== null && (
        <LockoutDialog
          message={lockout}
          canOverride={admin}
          onOverride={() => {
            setLockout(null);
            void deploy(true);
          }}
          onClose={() => setLockout(null)}
        />
      )}
    </PageShell>
  );
}

function PendingTable(props: {
  rows: PendingDeployment[];
  chosen: ReadonlySet<number>;
  canaries: ReadonlySet<number>;
  disabled: boolean;
  onChoose: (id: number) => void;
  onCanary: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  if (props.rows.length === 0)
    return <Alert severity="success">{t('deploy.nothingPending')}</Alert>;
  return (
    <Paper variant="outlined">
      <Table size="small" data-testid="pending-deployments">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">{t('deploy.columns.deploy')}</TableCell>
            <TableCell padding="checkbox">{t('deploy.columns.canary')}</TableCell>
            <TableCell>{t('deploy.columns.device')}</TableCell>
            <TableCell>{t('deploy.columns.deployed')}</TableCell>
            <TableCell>{t('deploy.columns.saved')}</TableCell>
            <TableCell>{t('deploy.columns.changes')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.rows.map((row) => (
            <Fragment key={row.device_id}>
              <TableRow data-device={row.device_name}>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={props.chosen.has(row.device_id)}
                    disabled={props.disabled || row.in_deployment !== null}
                    onChange={() => props.onChoose(row.device_id)}
                    slotProps={{
                      input: { 'aria-label': t('deploy.chooseDevice', { name: row.device_name }) },
                    }}
                  />
                </TableCell>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={props.canaries.has(row.device_id)}
                    disabled={props.disabled || row.in_deployment !== null}
                    onChange={() => props.onCanary(row.device_id)}
                    slotProps={{
                      input: { 'aria-label': t('deploy.chooseCanary', { name: row.device_name }) },
                    }}
                  />
                </TableCell>
                <TableCell>
                  <Link
                    component="button"
                    type="button"
                    aria-expanded={open === row.device_id}
                    onClick={() => setOpen(open === row.device_id ? null : row.device_id)}
                  >
                    {row.device_name}
                  </Link>
                </TableCell>
                <TableCell>{versions(row.deployed)}</TableCell>
                <TableCell>{versions(row.saved)}</TableCell>
                <TableCell>
                  {row.config_changed && (
                    <Chip size="small" label={t('deploy.configChanged')} sx={{ mr: 1 }} />
                  )}
                  {row.policy_changed && (
                    <Chip size="small" label={t('deploy.policyChanged')} sx={{ mr: 1 }} />
                  )}
                  {row.in_deployment !== null && (
                    <Chip
                      size="small"
                      color="warning"
                      label={t('deploy.inCanary', { id: row.in_deployment })}
                    />
                  )}
                </TableCell>
              </TableRow>
              {open === row.device_id && (
                <TableRow>
                  <TableCell colSpan={6}>
                    <PendingDeviceChange deviceId={row.device_id} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

function DeploymentList({ deployments }: { deployments: Deployment[] }) {
  const { t, i18n } = useTranslation();
  if (deployments.length === 0)
    return <Typography color="text.secondary">{t('deploy.noDeployments')}</Typography>;
  return (
    <Paper variant="outlined">
      <Table size="small" data-testid="deployments">
        <TableHead>
          <TableRow>
            <TableCell>#</TableCell>
            <TableCell>{t('deploy.columns.status')}</TableCell>
            <TableCell>{t('deploy.columns.when')}</TableCell>
            <TableCell>{t('deploy.columns.by')}</TableCell>
            <TableCell>{t('deploy.columns.devices')}</TableCell>
            <TableCell>{t('deploy.columns.gate')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deployments.map((d) => (
            <TableRow key={d.id} data-deployment={d.id}>
              <TableCell>{d.id}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  color={STATUS_COLOR[d.status]}
                  label={t(STATUS_LABEL[d.status])}
                />
              </TableCell>
              <TableCell>{formatDateTime(d.created_at, i18n.language)}</TableCell>
              <TableCell>{d.created_by}</TableCell>
              <TableCell>
                {t('deploy.deviceCount', { count: d.device_count, canaries: d.canary_count })}
              </TableCell>
              <TableCell>
                {d.failure
                  ? t('deploy.gateFailed', {
                      device: d.failure.device_name,
                      condition: t(CONDITION_LABEL[d.failure.condition]),
                      detail: d.failure.detail,
                    })
                  : d.status === 'canary' && d.gate_due_at
                    ? t('deploy.gateDue', {
                        time: formatDateTime(d.gate_due_at, i18n.language),
                      })
                    : ''}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

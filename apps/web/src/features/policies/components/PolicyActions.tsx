import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import HistoryIcon from '@mui/icons-material/History';
import IosShareIcon from '@mui/icons-material/IosShare';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import PreviewIcon from '@mui/icons-material/Preview';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { Policy } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { downloadPolicyRules, exportPolicy } from '../api/download-policy';

export type PolicyAction = 'edit' | 'preview' | 'history' | 'upload' | 'delete';

/** A policy row's actions: edit (or view), preview, and a menu with the rest. */
export function PolicyActions({
  policy,
  onAction,
}: {
  policy: Policy;
  onAction: (action: PolicyAction, policy: Policy) => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const run = (action: () => void) => {
    setAnchor(null);
    action();
  };
  return (
    <>
      <Tooltip title={policy.can_edit ? t('policies.edit') : t('policies.view')}>
        <IconButton
          size="small"
          aria-label={
            policy.can_edit
              ? t('policies.editName', { name: policy.name })
              : t('policies.viewName', { name: policy.name })
          }
          onClick={() => onAction('edit', policy)}
        >
          {policy.can_edit ? <EditIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Tooltip title={t('policies.preview.action')}>
        <IconButton
          size="small"
          aria-label={t('policies.preview.title', { name: policy.name })}
          onClick={() => onAction('preview', policy)}
        >
          <PreviewIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <IconButton
        size="small"
        aria-label={t('policies.more', { name: policy.name })}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => run(() => void downloadPolicyRules(policy.id).catch(notifyApiError))}
        >
          <ListItemIcon>
            <DownloadIcon fontSize="small" />
          </ListItemIcon>
          {t('policies.downloadRules')}
        </MenuItem>
        <MenuItem onClick={() => run(() => onAction('history', policy))}>
          <ListItemIcon>
            <HistoryIcon fontSize="small" />
          </ListItemIcon>
          {t('versions.history')}
        </MenuItem>
        <MenuItem onClick={() => run(() => void exportPolicy(policy.id).catch(notifyApiError))}>
          <ListItemIcon>
            <IosShareIcon fontSize="small" />
          </ListItemIcon>
          {t('policies.export')}
        </MenuItem>
        {policy.can_edit && (
          <MenuItem onClick={() => run(() => onAction('upload', policy))}>
            <ListItemIcon>
              <FileUploadIcon fontSize="small" />
            </ListItemIcon>
            {t('policies.upload.action')}
          </MenuItem>
        )}
        {policy.can_edit && (
          <MenuItem onClick={() => run(() => onAction('delete', policy))}>
            <ListItemIcon>
              <DeleteIcon fontSize="small" />
            </ListItemIcon>
            {t('common.delete')}
          </MenuItem>
        )}
      </Menu>
    </>
  );
}

import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import BookmarksIcon from '@mui/icons-material/BookmarksOutlined';
import type { AlertView, AlertViewFilters } from '@palisade/contract';
import { notifyErrorKey } from '../../../components/notifications/notify';
import { alertViewsQueryOptions } from '../api/list-alert-views';
import type { FilterForm } from '../filters';
import { formOfView, viewFiltersOf } from '../saved-views';
import { ManageViewsDialog } from './ManageViewsDialog';
import { SaveViewDialog } from './SaveViewDialog';

interface SavedViewsMenuProps {
  /** The filters in force (as the URL holds them). */
  form: FilterForm;
  /** Operators and Administrators may share views. */
  canShare: boolean;
  onApply: (form: FilterForm) => void;
}

const sameForm = (a: FilterForm, b: FilterForm) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The Views menu of the Alerts page: apply a saved view (one's own, then those shared in the
 * organization), save the current filters as a view, rename or delete one's own.
 */
export function SavedViewsMenu({ form, canShare, onApply }: SavedViewsMenuProps) {
  const { t } = useTranslation();
  const views = useQuery(alertViewsQueryOptions);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState<AlertViewFilters | null>(null);
  const [managing, setManaging] = useState(false);
  const all = views.data?.data ?? [];
  const own = all.filter((v) => v.can_edit);
  const ordered = [...own, ...all.filter((v) => !v.can_edit)];
  const current = ordered.find((v) => sameForm(formOfView(v.filters), form));
  const close = () => setAnchor(null);

  const apply = (view: AlertView) => {
    close();
    onApply(formOfView(view.filters));
  };
  const startSave = () => {
    close();
    const filters = viewFiltersOf(form);
    if (filters === null) notifyErrorKey('alerts.savedViews.invalidFilters');
    else setSaving(filters);
  };
  const secondary = (view: AlertView) =>
    view.can_edit
      ? view.shared
        ? t('alerts.savedViews.sharedByMe')
        : null
      : t('alerts.savedViews.sharedBy', { owner: view.owner });

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<BookmarksIcon />}
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor !== null ? 'alert-views-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid="alert-views-button"
      >
        {current === undefined
          ? t('alerts.savedViews.button')
          : t('alerts.savedViews.buttonCurrent', { name: current.name })}
      </Button>
      <Menu id="alert-views-menu" anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem onClick={startSave}>{t('alerts.savedViews.save')}</MenuItem>
        <Divider />
        {ordered.length === 0 && (
          <MenuItem disabled>
            {views.isError ? t('alerts.savedViews.loadFailed') : t('alerts.savedViews.none')}
          </MenuItem>
        )}
        {ordered.map((view) => (
          <MenuItem
            key={view.id}
            selected={view.id === current?.id}
            onClick={() => apply(view)}
            data-testid="alert-view"
          >
            <ListItemText primary={view.name} secondary={secondary(view)} />
          </MenuItem>
        ))}
        {own.length > 0 && <Divider />}
        {own.length > 0 && (
          <MenuItem
            onClick={() => {
              close();
              setManaging(true);
            }}
          >
            {t('alerts.savedViews.manage')}
          </MenuItem>
        )}
      </Menu>
      {saving !== null && (
        <SaveViewDialog
          target={{ filters: saving }}
          canShare={canShare}
          onClose={() => setSaving(null)}
        />
      )}
      {managing && (
        <ManageViewsDialog views={own} canShare={canShare} onClose={() => setManaging(false)} />
      )}
    </>
  );
}

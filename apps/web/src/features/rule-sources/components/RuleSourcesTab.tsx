import { useSearchParams } from 'react-router';
import { SourceHistory } from './SourceHistory';
import { SourceList } from './SourceList';
import { UpdateChangelog } from './UpdateChangelog';

/** A positive whole number from the URL, or null. */
function idParam(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/**
 * The Rule sources tab of /policies: the list, `&source=ID` its update history,
 * `&source=ID&update=ID` an update's changelog (`&sid=N`: one rule's change).
 */
export function RuleSourcesTab({ canWrite }: { canWrite: boolean }) {
  const [params] = useSearchParams();
  const sourceId = idParam(params.get('source'));
  const updateId = idParam(params.get('update'));
  if (sourceId === null) return <SourceList canWrite={canWrite} />;
  if (updateId === null) return <SourceHistory sourceId={sourceId} canWrite={canWrite} />;
  return (
    <UpdateChangelog sourceId={sourceId} updateId={updateId} sid={idParam(params.get('sid'))} />
  );
}

import type { AlertFilters } from '@palisade/contract';
import { call, http } from '../../../lib/api-client';
import { fileNameOf, saveBlob } from '../../../lib/upload';
import { filterParams } from '../filters';

/** GET /alerts/export: the filtered alerts as a CSV or NDJSON file (Bearer-authorised download). */
export async function exportAlerts(filters: AlertFilters, format: 'csv' | 'ndjson'): Promise<void> {
  const response = await call(() =>
    http.get('alerts/export', { searchParams: { ...filterParams(filters), format } }),
  );
  saveBlob(
    await response.blob(),
    fileNameOf(response.headers.get('content-disposition'), `alerts.${format}`),
  );
}

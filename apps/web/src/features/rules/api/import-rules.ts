import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePreview, ImportReport } from '@palisade/contract';
import { uploadFiles, type UploadProgress } from '../../../lib/upload';
import { groupsListKey } from './list-groups';
import { rulesListKey } from './list-rules';

/** Files the import accepts: rules files, archives of them, classification.config. */
export const IMPORT_ACCEPT = '.rules,.tar.gz,.tgz,.tar,.zip,.config';

/**
 * The server's time to import once the files are sent. An Emerging Threats–sized archive
 * (30,000+ rules in one transaction) can take longer than the 15 s request timeout on a
 * busy host, and a timed-out import would be reported as failed although it completes.
 */
export const IMPORT_ANSWER_TIMEOUT_MS = 120_000;

/** POST /rules/import?strict=false (multipart `file`), with upload progress. */
export function useImportRules(onProgress: (progress: UploadProgress) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) =>
      uploadFiles<ImportReport>({
        path: 'rules/import?strict=false',
        files,
        onProgress,
        answerTimeoutMs: IMPORT_ANSWER_TIMEOUT_MS,
      }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: rulesListKey }),
        client.invalidateQueries({ queryKey: groupsListKey }),
      ]),
  });
}

/** POST /rules/import/preview: what importing the files would send to devices; nothing is saved. */
export const previewImport = (
  files: File[],
  onProgress: (progress: UploadProgress) => void,
): Promise<ChangePreview> =>
  uploadFiles<ChangePreview>({
    path: 'rules/import/preview?strict=false',
    files,
    onProgress,
    answerTimeoutMs: IMPORT_ANSWER_TIMEOUT_MS,
  });

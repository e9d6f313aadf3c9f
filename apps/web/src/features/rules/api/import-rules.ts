import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportReport } from '@palisade/contract';
import { uploadFiles, type UploadProgress } from '../../../lib/upload';
import { groupsListKey } from './list-groups';
import { rulesListKey } from './list-rules';

/** Files the import accepts: rules files, archives of them, classification.config. */
export const IMPORT_ACCEPT = '.rules,.tar.gz,.tgz,.tar,.zip,.config';

/** POST /rules/import?strict=false (multipart `file`), with upload progress. */
export function useImportRules(onProgress: (progress: UploadProgress) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) =>
      uploadFiles<ImportReport>({ path: 'rules/import?strict=false', files, onProgress }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: rulesListKey }),
        client.invalidateQueries({ queryKey: groupsListKey }),
      ]),
  });
}

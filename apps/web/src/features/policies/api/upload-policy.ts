import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePreview, ListResponse, Policy, PolicyUploadReport } from '@palisade/contract';
import type { z } from 'zod';
import { uploadFiles, type UploadProgress } from '../../../lib/upload';
import { mergePolicy, policiesListKey } from './list-policies';
import { policyRenderKey } from './render-policy';

export type PolicyUploadAnswer = z.infer<typeof PolicyUploadReport>;

/** suricata-update's files and our own export. */
export const POLICY_UPLOAD_ACCEPT = '.conf,.json';

/** POST /policies/{id}/upload (multipart `file`): the updated policy is merged by id. */
export function useUploadPolicy(id: number, onProgress: (progress: UploadProgress) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) =>
      uploadFiles<PolicyUploadAnswer>({ path: `policies/${id}/upload`, files, onProgress }),
    onSuccess: async (answer) => {
      client.setQueryData<ListResponse<Policy>>(policiesListKey, (list) =>
        mergePolicy(list, answer.policy),
      );
      await client.invalidateQueries({ queryKey: policyRenderKey(id) });
    },
  });
}

/** POST /policies/{id}/upload/preview: what the upload would send to the policy's devices. */
export const previewPolicyUpload = (
  id: number,
  files: File[],
  onProgress: (progress: UploadProgress) => void,
): Promise<ChangePreview> =>
  uploadFiles<ChangePreview>({ path: `policies/${id}/upload/preview`, files, onProgress });

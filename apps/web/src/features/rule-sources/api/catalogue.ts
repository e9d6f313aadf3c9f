import { queryOptions } from '@tanstack/react-query';
import type { RuleSourceCatalogue } from '@palisade/contract';
import type { z } from 'zod';
import { call, http } from '../../../lib/api-client';
import { ruleSourcesKeys } from './keys';

/** The Suricata versions the catalogue offers ET Open for. */
export const SURICATA_VERSIONS = ['8.0', '7.0', '6.0'] as const;

/** GET /rulesources/catalogue?suricata_version=7.0: the well-known free sources. */
export const catalogueQueryOptions = (suricataVersion: string) =>
  queryOptions({
    queryKey: ruleSourcesKeys.catalogue(suricataVersion),
    queryFn: ({ signal }) =>
      call(() =>
        http
          .get('rulesources/catalogue', {
            searchParams: { suricata_version: suricataVersion },
            signal,
          })
          .json<z.infer<typeof RuleSourceCatalogue>>(),
      ),
    staleTime: Infinity,
  });

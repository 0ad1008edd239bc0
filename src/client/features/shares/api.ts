// Queries and mutations of specialist share links (docs/decisions.md#specialist-share-links).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Share, ShareInput, SharedRecord } from '../../../shared/shares';
import { apiJson } from '../../api/request';
import { ACTIVITY_KEY, AUDIT_KEY } from '../audit/api';

/** A record's links: ['/api/medical-records', id, 'shares']. */
const recordSharesKey = (recordId: string) => ['/api/medical-records', recordId, 'shares'];
/** The signed-in patient's links that open now. */
export const OPEN_SHARES_KEY = ['/api/shares'] as const;

export const useRecordShares = (recordId: string) =>
  useQuery<{ items: Share[] }>({ queryKey: recordSharesKey(recordId), staleTime: 0 });

export const useOpenShares = () => useQuery<{ items: Share[] }>({ queryKey: OPEN_SHARES_KEY, staleTime: 0 });

/** What a share link opens. Every opening is audited: read once, never again in the background. */
export const useSharedRecord = (token: string) =>
  useQuery<SharedRecord>({ queryKey: [...OPEN_SHARES_KEY, token], retry: false, gcTime: 0 });

/** After a link is made or revoked: the lists of links and the trails that record it. */
function useRefreshShares() {
  const client = useQueryClient();
  return (recordId: string) =>
    Promise.all(
      [recordSharesKey(recordId), OPEN_SHARES_KEY, ACTIVITY_KEY, AUDIT_KEY].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useCreateShare(recordId: string) {
  const refresh = useRefreshShares();
  return useMutation({
    mutationFn: (input: ShareInput) =>
      apiJson<Share>('POST', `/api/medical-records/${recordId}/shares`, input),
    onSuccess: () => refresh(recordId),
  });
}

export function useRevokeShare() {
  const refresh = useRefreshShares();
  return useMutation({
    mutationFn: (share: Pick<Share, 'id' | 'recordId'>) =>
      apiJson<Share>('DELETE', `/api/medical-records/${share.recordId}/shares/${share.id}`),
    onSuccess: (share) => refresh(share.recordId),
  });
}

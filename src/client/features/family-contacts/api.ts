// A patient's family contacts (docs/spec.md#calls): one page of them, and adding, editing or
// removing one (audited, so the activity trail is read again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FamilyContact, FamilyContactInput } from '../../../shared/family-contacts';
import type { Paged } from '../../../shared/paging';
import { apiJson } from '../../api/request';
import { ACTIVITY_KEY } from '../audit/api';

export const FAMILY_KEY = ['/api/family-contacts/patient'] as const;

export const useFamilyContacts = (patientRowId: string | undefined, page = 1) =>
  useQuery<Paged<FamilyContact>>({
    queryKey: [...FAMILY_KEY, patientRowId ?? '', { page }],
    enabled: !!patientRowId,
  });

export type ContactChange =
  | { kind: 'add'; input: FamilyContactInput }
  | { kind: 'update'; id: string; input: FamilyContactInput }
  | { kind: 'delete'; id: string };

export function useChangeContact(patientRowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: ContactChange): Promise<unknown> => {
      if (change.kind === 'add') return apiJson<FamilyContact>('POST', '/api/family-contacts', change.input);
      if (change.kind === 'update')
        return apiJson<FamilyContact>('PUT', `/api/family-contacts/${change.id}`, change.input);
      return apiJson<{ message: string }>('DELETE', `/api/family-contacts/${change.id}`);
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: [...FAMILY_KEY, patientRowId] }),
        client.invalidateQueries({ queryKey: ACTIVITY_KEY }),
      ]),
  });
}

// The hospital's settings (docs/spec.md#calls): read, and saved (audited, so the trail is read again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HospitalSettings, HospitalSettingsInput } from '../../../shared/hospital';
import { apiJson } from '../../api/request';
import { AUDIT_KEY } from '../audit/api';

export const SETTINGS_KEY = ['/api/hospital/settings'] as const;

export const useSettings = () => useQuery<HospitalSettings>({ queryKey: SETTINGS_KEY });

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: HospitalSettingsInput) =>
      apiJson<HospitalSettings>('PUT', '/api/hospital/settings', input),
    onSuccess: (data) => {
      client.setQueryData(SETTINGS_KEY, data);
      return client.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}

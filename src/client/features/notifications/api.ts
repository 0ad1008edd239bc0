// The account's e-mail notification preferences.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, NotificationPreferencesInput } from '../../../shared/notifications';
import { apiJson } from '../../api/request';

const PREFERENCES_KEY = ['/api/notifications/preferences'] as const;

export const useNotificationPreferences = () =>
  useQuery<NotificationPreferences>({ queryKey: PREFERENCES_KEY });

export function useSaveNotificationPreferences(onError: (error: Error) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferencesInput) =>
      apiJson<NotificationPreferences>('PUT', '/api/notifications/preferences', input),
    onSuccess: (data) => client.setQueryData(PREFERENCES_KEY, data),
    onError,
  });
}

// The patient's calendar subscription and the calendar file links (issue 13).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed, CalendarFeedCreated } from '../../../shared/calendar';
import { apiJson } from '../../api/request';

export const FEED_KEY = ['/api/calendar/feed'] as const;
export const appointmentIcsUrl = (id: string) => `/api/appointments/${encodeURIComponent(id)}/ics`;
export const patientIcsUrl = (userId: string) =>
  `/api/appointments/patient/${encodeURIComponent(userId)}/ics`;

export const useCalendarFeed = () => useQuery<CalendarFeed>({ queryKey: FEED_KEY });

export function useRenewFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<CalendarFeedCreated>('POST', '/api/calendar/feed'),
    onSuccess: (feed) => client.setQueryData(FEED_KEY, { active: feed.active, createdAt: feed.createdAt }),
  });
}

export function useRevokeFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<CalendarFeed>('DELETE', '/api/calendar/feed'),
    onSuccess: (feed) => client.setQueryData(FEED_KEY, feed),
  });
}

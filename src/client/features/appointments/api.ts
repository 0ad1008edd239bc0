// Appointment queries and mutations (docs/spec.md#calls). After any change the list and the audit
// trail are read again.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '../../../shared/appointments';
import { MAX_PAGE_SIZE, type Paged } from '../../../shared/paging';
import { apiJson } from '../../api/request';
import { AUDIT_KEY } from '../audit/api';

export const APPOINTMENTS_KEY = ['/api/appointments'] as const;

/**
 * The hospital's appointments between `from` and `to`, the largest page the server gives
 * (MAX_PAGE_SIZE); `total` says how many there are, so a truncated month is shown as such.
 * Failed fetches are only logged (docs/spec.md#messages): the list stays empty.
 */
export function useHospitalAppointments(
  hospitalUserId: string | undefined,
  range: { from: string; to: string },
): { items: Appointment[]; total: number } {
  const query = useQuery<Paged<Appointment>>({
    queryKey: [...APPOINTMENTS_KEY, 'hospital', hospitalUserId ?? '', { ...range, pageSize: MAX_PAGE_SIZE }],
    enabled: !!hospitalUserId,
    placeholderData: keepPreviousData,
  });
  if (query.error) console.error('Failed to load appointments', query.error);
  return { items: query.data?.items ?? [], total: query.data?.total ?? 0 };
}

/** The signed-in patient's appointments from `from` on, the largest page the server gives. */
export const useOwnAppointments = (from: string) =>
  useQuery<Paged<Appointment>>({
    queryKey: [...APPOINTMENTS_KEY, 'patient', { from, pageSize: MAX_PAGE_SIZE }],
  });

export interface AppointmentPayload {
  patientId: string;
  appointmentType: string;
  /** Free text, left out when a practitioner is chosen (the server names them). */
  doctorName?: string;
  practitionerId: string | null;
  department: string;
  appointmentDate: string;
  location: string | null;
  notes: string | null;
}

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: APPOINTMENTS_KEY }),
      client.invalidateQueries({ queryKey: AUDIT_KEY }),
    ]);
}

export function useSaveAppointment() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, payload }: { id?: string; payload: AppointmentPayload }) =>
      id
        ? apiJson<Appointment>('PUT', `/api/appointments/${id}`, payload)
        : apiJson<Appointment>('POST', '/api/appointments', { ...payload, status: 'scheduled' }),
    onSuccess: () => refresh(),
  });
}

export function useSetAppointmentStatus() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: string }) =>
      apiJson<Appointment>('PATCH', `/api/appointments/${id}/status`, { status }),
    onSuccess: () => refresh(),
  });
}

export function useCancelAppointment() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiJson<Appointment>('DELETE', `/api/appointments/${id}`),
    onSuccess: () => refresh(),
  });
}

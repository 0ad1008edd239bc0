// Appointment queries and mutations (docs/spec.md#calls). After any change the list and the audit
// trail are read again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '../../../shared/appointments';
import { apiJson } from '../../api/request';
import { AUDIT_KEY } from '../hospital/api';

export const APPOINTMENTS_KEY = '/api/appointments';

/** Failed fetches are only logged (docs/spec.md#messages): the list stays empty. */
export function useHospitalAppointments(hospitalUserId: string | undefined) {
  const query = useQuery<Appointment[]>({
    queryKey: [APPOINTMENTS_KEY, 'hospital', hospitalUserId ?? ''],
    enabled: !!hospitalUserId,
  });
  if (query.error) console.error('Failed to load appointments', query.error);
  return query.data ?? [];
}

export interface AppointmentPayload {
  patientId: string;
  appointmentType: string;
  doctorName: string;
  department: string;
  appointmentDate: string;
  location: string | null;
  notes: string | null;
}

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [APPOINTMENTS_KEY] }),
      client.invalidateQueries({ queryKey: [AUDIT_KEY] }),
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

// The acting user of a request as the services take it: id, role and the IP the audit trail keeps.
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/session.js';

export interface Actor {
  id: string;
  role: 'hospital' | 'patient' | 'medledger_admin';
  ip: string;
}

export function actorOf(request: FastifyRequest): Actor {
  const user = currentUser(request);
  return { id: user.id, role: user.role, ip: request.ip };
}

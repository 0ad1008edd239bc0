// The acting user of a request as the services take it: id, role and the IP the audit trail keeps.
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../../shared/constants.js';
import { currentUser } from '../../plugins/session.js';

export interface Actor {
  id: string;
  role: Role;
  ip: string;
}

export function actorOf(request: FastifyRequest): Actor {
  const user = currentUser(request);
  return { id: user.id, role: user.role, ip: request.ip };
}

// Family contacts (docs/spec.md#calls): GET /api/family-contacts/patient/{patientId}, POST, PUT and
// DELETE /api/family-contacts/{id}. Reading: the patient or the hospital that created them;
// changing: the patient only.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagedSchema, pagingQuerySchema } from '../../../shared/paging.js';
import { text } from '../../../shared/text.js';
import { messageSchema } from '../../../shared/auth.js';
import { familyContactInputSchema, familyContactSchema } from '../../../shared/family-contacts.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { inviteDeps, inviteIfDue } from '../proxy/invitations.js';
import { addContact, deleteContact, listContacts, updateContact } from './service.js';
import { ALL_STAFF } from '../../plugins/policy.js';

const tags = ['family contacts'];
const idParams = z.object({ id: text().max(100) });

export async function familyContactRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/family-contacts/patient/:patientId',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: false,
          healthData: true,
          staffRoles: ALL_STAFF,
        },
      },
      schema: {
        tags,
        summary: "A patient's family contacts (patients.id): the patient, or the hospital that created them",
        description:
          'Primary first, then oldest first; one page: ?page= (from 1), ?pageSize= (default 50, at most 100).',
        params: z.object({ patientId: text().max(100) }),
        querystring: pagingQuerySchema,
        response: { 200: pagedSchema(familyContactSchema) },
      },
    },
    async (request) => listContacts(ctx.db, actorOf(request), request.params.patientId, request.query),
  );

  r.post(
    '/api/family-contacts',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary:
          'Add a family contact to the signed-in patient (audited); a patientId in the body is ignored',
        body: familyContactInputSchema,
        response: { 201: familyContactSchema },
      },
    },
    async (request, reply) => {
      const contact = await addContact(ctx.db, actorOf(request), request.body, ctx.now());
      // docs/decisions.md#family-proxy-access: a contact with access and an e-mail is invited.
      await inviteIfDue(inviteDeps(ctx, request.log), actorOf(request), contact.id, ctx.now());
      return reply.status(201).send(contact);
    },
  );

  r.put(
    '/api/family-contacts/:id',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Change one of the signed-in patient’s family contacts (audited)',
        params: idParams,
        body: familyContactInputSchema,
        response: { 200: familyContactSchema },
      },
    },
    async (request) => {
      const contact = await updateContact(
        ctx.db,
        actorOf(request),
        request.params.id,
        request.body,
        ctx.now(),
      );
      await inviteIfDue(inviteDeps(ctx, request.log), actorOf(request), contact.id, ctx.now());
      return contact;
    },
  );

  r.delete(
    '/api/family-contacts/:id',
    {
      config: { policy: { roles: ['patient'], writeAccess: false, healthData: true } },
      schema: {
        tags,
        summary: 'Remove one of the signed-in patient’s family contacts (audited)',
        params: idParams,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await deleteContact(ctx.db, actorOf(request), request.params.id);
      return { message: 'Contact deleted.' };
    },
  );
}

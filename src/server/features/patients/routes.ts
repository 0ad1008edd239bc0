// Hospital patient management (docs/spec.md#hospital-dashboard "Patients", docs/spec.md#calls):
// POST/GET /api/patients, GET/PUT/DELETE /api/patients/{id}, and a new activation code with
// POST /api/patients/{id}/activation-code (docs/decisions.md#identity), and a patient's profile by
// their user id, GET /api/patients/profile/{userId} (profile.ts). Every write's policy declares
// writeAccess (402 after the trial).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../shared/text.js';
import { messageSchema } from '../../../shared/auth.js';
import { createdPatientSchema, issuedActivationCodeSchema } from '../../../shared/activation.js';
import {
  patientCreateSchema,
  patientInputSchema,
  patientListQuerySchema,
  patientPageSchema,
  patientSchema,
} from '../../../shared/patients.js';
import type { AppContext } from '../../context.js';
import { actorOf, editsOwnProfile, orgOf } from '../../access.js';
import {
  ACTIVATION_KEY_PURPOSE,
  activationMail,
  type ActivationSettings,
  type IssuedActivationCode,
} from './activation.js';
import { getProfile, updateOwnProfile } from './profile.js';
import {
  archivePatient,
  createPatient,
  getPatient,
  listPatients,
  reissueActivationCode,
  updatePatientDemographics,
} from './service.js';
import { ALL_STAFF, CLINICAL_STAFF } from '../../plugins/policy.js';

const idParams = z.object({ id: text().max(100) });
const tags = ['patients'];

export async function patientRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const activation = (): ActivationSettings => ({
    key: ctx.files.deriveKey(ACTIVATION_KEY_PURPOSE),
    days: ctx.config.activationCodeDays,
  });

  /** Mails the activation link after the answer when the patient has an e-mail; the answer says so. */
  function answerIssued(patientRowId: string, email: string | null, issued: IssuedActivationCode) {
    if (email) {
      ctx.mail.later(async () => {
        const mail = await activationMail(ctx.db, ctx.config.publicUrl, patientRowId, issued);
        if (mail) await ctx.mail.send(mail);
      });
    }
    return {
      activationCode: issued.code,
      activationCodeExpiresAt: issued.expiresAt.toISOString(),
      activationLinkEmailed: Boolean(email),
    };
  }

  r.post(
    '/api/patients',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary:
          'Add a patient (all fields optional); the answer carries the generated MRN as patientId and ' +
          'the one-time activationCode (shown once)',
        description:
          "Answers 409 with `duplicates` when one of this hospital's patients has the same name and date of " +
          'birth, or the same e-mail, unless `confirmDuplicate` is true. With an e-mail, the patient is ' +
          'mailed an activation link.',
        body: patientCreateSchema,
        response: { 201: createdPatientSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const created = await createPatient(ctx.db, actor, request.body, ctx.now(), activation());
      const { patient } = created;
      return reply
        .status(201)
        .send({ ...patient, ...answerIssued(patient.id, patient.email, created.activation) });
    },
  );

  r.post(
    '/api/patients/:id/activation-code',
    {
      config: { policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: ALL_STAFF } },
      schema: {
        tags,
        summary:
          'A new one-time activation code for a patient who has not signed up yet (the old code is void; audited)',
        description:
          'Answers 409 when the patient already has an account. With an e-mail, the link is mailed.',
        params: idParams,
        response: { 200: issuedActivationCodeSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const issued = await reissueActivationCode(ctx.db, actor, request.params.id, ctx.now(), activation());
      return answerIssued(issued.patient.id, issued.patient.email, issued.activation);
    },
  );

  r.get(
    '/api/patients',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: ALL_STAFF },
      },
      schema: {
        tags,
        summary: "A page of the hospital's own patients: search by name, e-mail or MRN; department filter",
        description:
          'Paged (our decision; the spec says "list of patients"). The department filter keeps patients ' +
          'with a record or an appointment at this hospital in that department.',
        querystring: patientListQuerySchema,
        response: { 200: patientPageSchema },
      },
    },
    async (request) => listPatients(ctx.db, orgOf(actorOf(request)), request.query),
  );

  r.get(
    '/api/patients/:id',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: false, healthData: true, staffRoles: ALL_STAFF },
      },
      schema: {
        tags,
        summary: 'One of the hospital’s own patients',
        params: idParams,
        response: { 200: patientSchema },
      },
    },
    async (request) => getPatient(ctx.db, actorOf(request), request.params.id),
  );

  r.get(
    '/api/patients/profile/:userId',
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
        tags: ['patient profile'],
        summary:
          "A patient's profile by their account's user id: a patient their own, a hospital a patient it created",
        params: z.object({ userId: text().max(100) }),
        response: { 200: patientSchema },
      },
    },
    async (request) => getProfile(ctx.db, actorOf(request), request.params.userId),
  );

  r.put(
    '/api/patients/:id',
    {
      config: {
        policy: {
          roles: ['hospital', 'patient'],
          writeAccess: true,
          healthData: true,
          staffRoles: ALL_STAFF,
        },
      },
      schema: {
        tags,
        summary:
          'Edit a patient: a hospital changes the demographics of its own patient (audited); a patient ' +
          'changes only their own phone, insuranceProvider, insurancePolicy, primaryCarePhysician (ledgered, audited)',
        params: idParams,
        body: patientInputSchema,
        response: { 200: patientSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      // A patient changes only their own phone, insurance and primary care (ledgered, audited).
      const update = editsOwnProfile(actor) ? updateOwnProfile : updatePatientDemographics;
      return update(ctx.db, actor, request.params.id, request.body, ctx.now());
    },
  );

  r.delete(
    '/api/patients/:id',
    {
      config: {
        policy: { roles: ['hospital'], writeAccess: true, healthData: true, staffRoles: CLINICAL_STAFF },
      },
      schema: {
        tags,
        summary:
          'Remove a patient from the list (archived: records, attachments and ledger entries are kept)',
        params: idParams,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await archivePatient(ctx.db, actor, request.params.id, ctx.now());
      return { message: 'Patient deleted. Their records are kept.' };
    },
  );
}

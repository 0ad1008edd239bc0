// FHIR R4 export (issue 13): the patient's whole record as one Bundle, application/fhir+json.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../access.js';
import { exportPatient } from './service.js';
import { CLINICAL_STAFF } from '../../plugins/policy.js';

export const FHIR_JSON = 'application/fhir+json';

export async function fhirRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/fhir/Patient/:id/$everything',
    {
      config: {
        policy: {
          roles: ['patient', 'hospital'],
          writeAccess: false,
          healthData: true,
          staffRoles: CLINICAL_STAFF,
        },
      },
      schema: {
        tags: ['fhir'],
        summary:
          "A patient's data as a FHIR R4 Bundle (collection): the patient themself or the creating hospital",
        description:
          'Patient, Organization, DocumentReference per record (attachments with SHA-1 and download url), ' +
          'Appointment, Consent and RelatedPerson; every reference is a urn:uuid of an entry in the bundle.',
        params: z.object({ id: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const bundle = await exportPatient(
        { db: ctx.db, files: ctx.files, publicUrl: ctx.config.publicUrl, now: ctx.now() },
        actorOf(request),
        request.params.id,
      );
      return reply
        .header('content-type', `${FHIR_JSON}; charset=utf-8`)
        .header(
          'content-disposition',
          `attachment; filename="medledger-${bundle.entry?.[0]?.resource?.id ?? 'patient'}.fhir.json"`,
        )
        .send(JSON.stringify(bundle));
    },
  );
}

// One error handler for the whole API: `{ message }` with the right status, never a stack trace,
// and never a 500 for bad input.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseOutage, isOutOfSpace, loggableError } from '../db/outage.js';
import { HttpError, storageFull } from '../errors.js';
import { isIntegrityFailure, MissingKeyError } from '../files/store.js';

/** Seconds a client is told to wait while the database is away. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
const SERVER_FAULT = 'Something went wrong on our side. Please try again.';
const INTEGRITY_FAILURE =
  'This file failed its integrity check: it may have been altered since it was uploaded, so it is not sent.';

/**
 * A fault of ours: logged with the error under `what`, answered 500 with the request id (in the
 * answer and in every log line, so that a support request can be traced) and nothing of the error.
 */
function answerServerFault(err: FastifyError, what: string, request: FastifyRequest, reply: FastifyReply) {
  request.log.error({ err: loggableError(err) }, what);
  return reply.status(500).send({ message: SERVER_FAULT, requestId: request.id });
}

interface ZodLikeIssue {
  message?: string;
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string; code?: string } };
}

/** A readable sentence for the first validation problem, naming the field for generic messages. */
export function describeValidationIssue(issue: ZodLikeIssue, part: string): string {
  const inner = issue.params?.issue;
  const message = inner?.message ?? issue.message ?? 'Invalid input';
  const pathParts = inner?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
  const field = pathParts.map(String).join('.');
  if (!field) {
    if (part === 'body' && /expected object/i.test(message)) return 'The request body must be a JSON object.';
    return message;
  }
  if (/received undefined/i.test(message)) return `${field} is required`;
  if (/^Invalid input: expected (\w+)/i.test(message)) {
    return `${field} must be ${message.replace(/^Invalid input: expected (\w+).*/i, 'a $1')}`;
  }
  if (/^(Invalid|Too (small|big)|Unrecognized)/i.test(message)) return `${field}: ${message}`;
  return message;
}

/**
 * Errors the router meets before any route or hook runs (Fastify's `frameworkErrors` option): an
 * address that is not valid percent-encoding, or a path segment over the router's length limit.
 * Answered like every other error, `{ message }`, instead of Fastify's own body with its error
 * code and the whole address repeated back.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send({ message: 'The address is not valid.' });
  } else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send({ message: 'The address is too long.' });
  } else {
    void answerServerFault(err, 'router error', request, reply);
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0] as unknown as ZodLikeIssue;
      return reply.status(400).send({ message: describeValidationIssue(first, err.validationContext ?? '') });
    }
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ ...err.extra, message: err.message });
    }
    if (isDatabaseOutage(err)) {
      request.log.warn({ err: loggableError(err) }, 'database unavailable');
      return reply.status(503).header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS)).send({
        message:
          'MedLedger is briefly unavailable (its database cannot be reached). Please try again in a moment.',
        requestId: request.id,
      });
    }
    if (isOutOfSpace(err)) {
      // The disk or the database's disk is full: the operator's to fix, so logged as an error, but
      // not a fault of the request; the write failed whole (a transaction, a discarded upload).
      request.log.error({ err: loggableError(err) }, 'storage full');
      const full = storageFull();
      return reply.status(full.statusCode).send({ message: full.message, requestId: request.id });
    }
    if (err instanceof MissingKeyError) {
      // The file is intact but sealed with a key this server was not given (a rotation whose
      // previous key was dropped too early): the operator's to fix, and the id tells which key.
      request.log.error({ err: loggableError(err) }, 'attachment sealed with a key not configured');
      return reply.status(500).send({
        message: `This file cannot be opened: it is sealed with key id ${err.keyId}, which this server is not configured with.`,
        requestId: request.id,
      });
    }
    if (isIntegrityFailure(err)) {
      // A stored attachment whose first chunk is not what was written, before anything was sent
      // (later, the connection is broken off): logged and audited where its stream broke
      // (features/records/download.ts), so neither again here nor as an "unhandled error".
      return reply.status(500).send({ message: INTEGRITY_FAILURE, requestId: request.id });
    }
    if (isResponseSerializationError(err)) {
      return answerServerFault(err, 'response did not match its schema', request, reply);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      let message = err.message;
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
        message = 'The request body is not valid JSON.';
      } else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
        message = 'The request body is empty; a JSON object was expected.';
      } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        message = 'The request body is too large.';
      } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        message = 'Unsupported content type.';
      }
      return reply.status(status).send({ message });
    }
    return answerServerFault(err, 'unhandled error', request, reply);
  });
}

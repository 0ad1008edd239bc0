// Errors that carry an HTTP status and a message safe to show to the user.
// The error handler (plugins/errors.ts) turns them into `{ message }` answers.
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    /** More of the answer beside `message`, for a client that can act on it (e.g. duplicates). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Please sign in to continue.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
/** Also used for other parties' resources, so that their existence does not leak. */
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(409, message, extra);
export const paymentRequired = (message: string) => new HttpError(402, message);
export const tooLarge = (message: string) => new HttpError(413, message);
export const unsupportedType = (message: string) => new HttpError(415, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
/** The disk (or the database's disk) has no room for what was sent: 507 Insufficient Storage. */
export const storageFull = () =>
  new HttpError(
    507,
    'MedLedger has run out of storage space, so this could not be saved. Nothing of it was kept; ' +
      'please tell your administrator and try again later.',
  );

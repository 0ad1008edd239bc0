import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { describeMultipartError } from './multipart.js';

const messages = { fileTooLargeMessage: 'too large', tooManyFilesMessage: 'too many' };

describe('describeMultipartError', () => {
  it("answers the form parser's own uncoded errors with a 400", () => {
    const answer = describeMultipartError(new Error('Unexpected end of form'), messages);
    expect(answer).toBeInstanceOf(HttpError);
    expect(answer).toMatchObject({ statusCode: 400 });
  });

  it("keeps a database error whose query names a column like 'format' (the error handler answers it)", () => {
    // What a cut connection looked like while an upload saved its attachments: the driver's error
    // has no code, and Drizzle's message holds the query.
    const cut = new DrizzleQueryError(
      'insert into "attachments" ("id", "record_id", "format") values ($1, $2, $3)',
      [],
      new Error('Connection terminated unexpectedly'),
    );
    expect(describeMultipartError(cut, messages)).toBe(cut);
  });

  it("answers the plugin's coded limits with a 413", () => {
    expect(describeMultipartError({ code: 'FST_FILES_LIMIT' }, messages)).toMatchObject({ statusCode: 413 });
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/request';
import {
  APPLICATION_FAILED_FALLBACK,
  EMPTY_APPLICATION,
  applicationErrors,
  applicationFailureMessage,
} from './applicationForm';

const valid = {
  ...EMPTY_APPLICATION,
  hospitalName: 'Bay Clinic',
  contactName: 'Bo Bay',
  contactEmail: 'bo@bay.example',
};

describe('application form messages', () => {
  it('accepts the required fields alone', () => {
    expect(applicationErrors(valid)).toEqual({});
  });

  it('gives the spec message for each rule, one per field', () => {
    expect(applicationErrors(EMPTY_APPLICATION)).toEqual({
      hospitalName: 'Hospital name must be at least 2 characters',
      contactName: 'Contact name must be at least 2 characters',
      contactEmail: 'Please enter a valid email address',
    });
    expect(applicationErrors({ ...valid, website: 'not a site' })).toEqual({
      website: 'Please enter a valid website URL',
    });
  });

  it('accepts a website without a scheme, and refuses other schemes', () => {
    expect(applicationErrors({ ...valid, website: 'bay.example' })).toEqual({});
    expect(applicationErrors({ ...valid, website: 'ftp://bay.example' }).website).toBeDefined();
  });
});

describe('application failure text', () => {
  it('takes the message of a JSON body in the error text', () => {
    const error = new ApiError(409, 'Conflict', '{"message":"Already waiting for review."}');
    expect(applicationFailureMessage(error)).toBe('Already waiting for review.');
  });

  it('falls back to the error text, then to the spec sentence', () => {
    expect(applicationFailureMessage(new ApiError(502, 'Bad Gateway', ''))).toBe('502: Bad Gateway');
    expect(applicationFailureMessage(new Error(''))).toBe(APPLICATION_FAILED_FALLBACK);
    expect(applicationFailureMessage('weird')).toBe(APPLICATION_FAILED_FALLBACK);
  });
});

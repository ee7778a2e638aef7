import type { Submission } from '../domain/submission.ts';
import type { FieldError } from '../errors.ts';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { compile, describeErrors } from './schemas.ts';

const validateSubmission = compile<Submission>(submissionSchema);
const FIELDS = Object.keys(submissionSchema.properties);

/** Checks one submission against schemas/submission.schema.json; every problem is named by its field path. */
export function checkSubmission(value: unknown, prefix = ''): { ok: true; submission: Submission } | { ok: false; errors: FieldError[] } {
  if (validateSubmission(value)) return { ok: true, submission: value };
  return { ok: false, errors: describeErrors(validateSubmission.errors, FIELDS, 'field', prefix) };
}

export { submissionSchema };

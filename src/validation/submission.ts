import type { Submission } from '../domain/submission.ts';
import { BODY_FIELD } from '../errors.ts';
import type { FieldError } from '../errors.ts';
import submissionSchema from '../../schemas/submission.schema.json' with { type: 'json' };
import { compile, describeErrors } from './schemas.ts';

const validateSubmission = compile<Submission>(submissionSchema);
const FIELDS = Object.keys(submissionSchema.properties);
const REQUIRED_FIELDS = submissionSchema.required.map((name) => `"${name}": …`).join(', ');

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one submission against schemas/submission.schema.json; every problem is named by its
 * field path. A value that is no JSON object at all is one problem, named by the prefix (the batch
 * item) or, for a whole body, `body`.
 */
export function checkSubmission(value: unknown, prefix = ''): { ok: true; submission: Submission } | { ok: false; errors: FieldError[] } {
  if (!isJsonObject(value)) return { ok: false, errors: [{ field: prefix || BODY_FIELD, message: `must be a JSON object: a submission, { ${REQUIRED_FIELDS} }` }] };
  if (validateSubmission(value)) return { ok: true, submission: value };
  return { ok: false, errors: describeErrors(validateSubmission.errors, FIELDS, 'field', prefix) };
}

export { submissionSchema };

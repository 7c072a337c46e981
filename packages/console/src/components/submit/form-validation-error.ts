/**
 * Thrown by a submit handler for a problem the form can only detect while saving (spec §8), e.g. a combination of
 * values the schema cannot express. The submit wrapper shows its message as an error toast.
 */
export class FormValidationError extends Error {
  override name = 'FormValidationError';
}

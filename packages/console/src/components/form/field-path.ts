import { type FieldPath, type FieldValues, get } from 'react-hook-form';

/**
 * Whether `path` names a value the form holds (a field, a row or a list): a path that arrives as text (an API path
 * mapped to the form's, a field to focus once its tab shows) becomes one of the form's own typed paths, without a cast.
 */
export function isFieldPath<Values extends FieldValues>(values: Values, path: string): path is FieldPath<Values> {
  return get(values, path) !== undefined;
}

/** Joins the truthy class names; CSS-module lookups may be undefined under noUncheckedIndexedAccess. */
export function classNames(...names: ReadonlyArray<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}

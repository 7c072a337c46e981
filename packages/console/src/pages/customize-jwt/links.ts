import { type JwtCustomizerTokenType, jwtCustomizerTokenTypes } from '@gatehouse/schemas';

/** Spec §2.2 customize-jwt: '{tokenType}/{action}', where the action is create or edit. */
export const editorActions = ['create', 'edit'] as const;
export type EditorAction = (typeof editorActions)[number];

export const isTokenType = (value: string | undefined): value is JwtCustomizerTokenType =>
  jwtCustomizerTokenTypes.some((type) => type === value);
export const isEditorAction = (value: string | undefined): value is EditorAction =>
  editorActions.some((action) => action === value);

/** Link builders of the customize-jwt area, relative to the tenant (resolve with useTenantPath). */
export const toCustomizeJwt = (): string => 'customize-jwt';
export const toJwtEditor = (tokenType: JwtCustomizerTokenType, action: EditorAction): string =>
  `customize-jwt/${tokenType}/${action}`;

import { describe, expect, it } from 'vitest';
import { parseProfileRouteState } from './route-state.ts';

describe('parseProfileRouteState', () => {
  it('keeps a valid email and action', () => {
    expect(parseProfileRouteState({ email: 'ada@example.com', action: 'changePassword' })).toEqual({
      email: 'ada@example.com',
      action: 'changePassword',
    });
    expect(parseProfileRouteState({ email: 'ada@example.com', action: 'changeEmail' })).toEqual({
      email: 'ada@example.com',
      action: 'changeEmail',
    });
  });

  it('keeps the action when there is no email (an account without one)', () => {
    expect(parseProfileRouteState({ action: 'changePassword' })).toEqual({ action: 'changePassword' });
  });

  it('treats both as undefined when the email does not match the email pattern', () => {
    expect(parseProfileRouteState({ email: 'not an email', action: 'changePassword' })).toEqual({});
    expect(parseProfileRouteState({ email: 'ada@example', action: 'changeEmail' })).toEqual({});
  });

  it('treats both as undefined when the action is not one of the two', () => {
    expect(parseProfileRouteState({ email: 'ada@example.com', action: 'deleteAccount' })).toEqual({});
    expect(parseProfileRouteState({ email: 'ada@example.com' })).toEqual({});
  });

  it('reads nothing from state that is not an object', () => {
    for (const state of [null, undefined, 'changePassword', 42, ['changePassword']]) {
      expect(parseProfileRouteState(state)).toEqual({});
    }
  });

  it('reads the verification record beside the flow, even when the flow is invalid', () => {
    expect(parseProfileRouteState({ action: 'changePassword', verificationRecordId: 'rec1' })).toEqual({
      action: 'changePassword',
      verificationRecordId: 'rec1',
    });
    expect(parseProfileRouteState({ email: 'bad', verificationRecordId: 'rec1' })).toEqual({
      verificationRecordId: 'rec1',
    });
    expect(parseProfileRouteState({ action: 'changePassword', verificationRecordId: '' })).toEqual({
      action: 'changePassword',
    });
  });
});

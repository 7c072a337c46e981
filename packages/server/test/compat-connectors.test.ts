import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 43: connectors as a client written for the reference management API creates them (its request shapes, status
 * and error codes).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const smtpConfig = { host: 'smtp.example.com', port: 587, username: 'u', password: 'p', fromEmail: 'a@example.com' };

describe('POST /connectors', () => {
  it('answers 422 connector.not_found_with_connector_id for an unknown factory, and creates nothing', async () => {
    for (const body of [
      { connectorId: 'no-such-factory', config: {} },
      { connectorId: 'no-such-factory', config: smtpConfig, metadata: { target: 'x' }, syncProfile: false },
    ]) {
      const response = await t.call('/api/connectors', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.json.code).toBe('connector.not_found_with_connector_id');
      expect(response.json.message).toEqual(expect.any(String));
    }
    expect((await t.call('/api/connectors')).json).toEqual([]);
  });

  it('creates one from a known factory with the reference’s body (200, the connector)', async () => {
    const response = await t.call('/api/connectors', {
      method: 'POST',
      body: { connectorId: 'smtp', config: smtpConfig },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({ connectorId: 'smtp', type: 'Email' });
    expect((await t.call(`/api/connectors/${response.json.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

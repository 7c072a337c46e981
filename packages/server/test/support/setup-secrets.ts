import { SecretBox, useSecretBox } from '../../src/db/secret-box.ts';
import { TEST_SECRETS_KEY } from './secrets.ts';

// Each test worker seals and opens secrets with the key the template database was seeded with, also in files that
// use the data layer without building an app (createApp sets the same key again).
useSecretBox(new SecretBox(TEST_SECRETS_KEY));

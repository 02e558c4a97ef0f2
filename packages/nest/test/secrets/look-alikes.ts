import { BASE64, HEX, fakeSource } from './fake-values.js';

const { chars } = fakeSource(0x10c4a1);

/** Text that looks a little like a secret but is not one: it must reach the model unchanged. */
export const LOOK_ALIKES: readonly string[] = [
  'order 123e4567-e89b-12d3-a456-426614174000 was not found',
  `deployed commit ${chars(HEX, 40)} to production`,
  `short sha ${chars(HEX, 7)} differs`,
  `thumbnail data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${chars(BASE64, 80)} is too large`,
  'The token expired; sign in again.',
  'Basic authentication failed for user bob',
  'Invalid token: the signature did not match',
  'maxTokens 4096 exceeds the model limit; tokens_used=5120',
  'file /var/lib/app/secrets/README.md could not be read',
  'GET https://api.example.com/v1/orders?page=2&sort=desc failed',
  'risk-assessment-framework-v2 has no entry for key-value stores',
  'password must be longer than or equal to 12 characters',
  'Key (email)=(bob@example.com) already exists.',
];

import { describe, expect, it } from '@jest/globals';
import { redactSecrets, redactUrl } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('masks user info and secret query values of URLs, wherever they are in the text', () => {
    expect(redactUrl('https://user:pw@api.example/v1?api_key=abc&model=x')).toBe(
      'https://***@api.example/v1?api_key=***&model=x',
    );
    expect(redactSecrets('cannot reach http://me:secret@10.0.0.1/v1?token=t0k refused')).toBe(
      'cannot reach http://***@10.0.0.1/v1?token=*** refused',
    );
  });

  it('masks the given secrets, bearer tokens and OpenAI-style keys', () => {
    expect(
      redactSecrets('key my-own-key and Bearer abc.def and sk-proj-12345678', ['my-own-key']),
    ).toBe('key *** and *** and ***');
  });
});

import { register } from 'node:module';

/** `node --import ./register-ts.mjs`: runs the repo's TypeScript sources (see ts-hooks.mjs). */
register('./ts-hooks.mjs', import.meta.url);

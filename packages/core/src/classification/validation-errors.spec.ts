import { describe, expect, it } from '@jest/globals';
import { issuesFromMessages, readValidationIssues } from './validation-errors.js';

describe('readValidationIssues', () => {
  it('flattens class-validator errors with nested paths', () => {
    const errors = [
      {
        property: 'city',
        constraints: { isString: 'city must be a string', isNotEmpty: 'city should not be empty' },
        children: [],
      },
      {
        property: 'address',
        children: [
          {
            property: 'zip',
            constraints: { isPostalCode: 'zip must be a postal code' },
            children: [],
          },
        ],
      },
      {
        property: 'items',
        children: [
          {
            property: '2',
            children: [{ property: 'id', constraints: { isUUID: 'id must be a UUID' } }],
          },
        ],
      },
      {
        property: 'debug',
        constraints: { whitelistValidation: 'property debug should not exist' },
        children: [],
      },
    ];
    expect(readValidationIssues(errors)).toEqual([
      { path: 'city', message: 'must be a string', constraint: 'isString' },
      { path: 'city', message: 'should not be empty', constraint: 'isNotEmpty' },
      { path: 'address.zip', message: 'must be a postal code', constraint: 'isPostalCode' },
      { path: 'items.2.id', message: 'must be a UUID', constraint: 'isUUID' },
      { path: 'debug', message: 'should not exist', constraint: 'whitelistValidation' },
    ]);
  });

  it('accepts a single error and one without constraints or children', () => {
    expect(readValidationIssues({ property: 'x', constraints: {} })).toEqual([]);
    expect(readValidationIssues([{ property: 'x', children: [] }])).toEqual([
      { path: 'x', message: 'is invalid' },
    ]);
  });

  it('reads Zod-style issues', () => {
    const zod = Object.assign(new Error('invalid'), {
      name: 'ZodError',
      issues: [
        {
          path: ['items', 0, 'qty'],
          message: 'Expected number, received string',
          code: 'invalid_type',
        },
      ],
    });
    expect(readValidationIssues(zod)).toEqual([
      {
        path: 'items.0.qty',
        message: 'Expected number, received string',
        constraint: 'invalid_type',
      },
    ]);
  });

  it.each([[], [{}], [{ property: 'x' }], 'text', null, new Error('x'), [1, 2]])(
    'ignores %p',
    (value) => {
      expect(readValidationIssues(value)).toBeUndefined();
    },
  );
});

describe('issuesFromMessages', () => {
  it('takes the leading path of flattened messages', () => {
    expect(
      issuesFromMessages([
        'address.zip must be a postal code',
        'items.2.id should not be empty',
        'property debug should not exist',
        'each value in tags must be a string',
        'Unexpected field',
      ]),
    ).toEqual([
      { path: 'address.zip', message: 'must be a postal code' },
      { path: 'items.2.id', message: 'should not be empty' },
      { path: 'debug', message: 'should not exist' },
      { path: '', message: 'each value in tags must be a string' },
      { path: '', message: 'Unexpected field' },
    ]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolShieldModule } from '@toolshield/nest';
import { networkError } from '../faults/network-error.fault.js';
import { Chaos } from '../nest/chaos.decorator.js';
import { ChaosModule } from '../nest/chaos.module.js';
import { ChaosController, type ChaosControllerOptions } from '../runtime/chaos-controller.js';
import type { ChaosRule } from '../selection/chaos-rule.js';

/** Good values, and bad ones with the problem each must be reported as. */
interface OptionTable {
  readonly good: readonly unknown[];
  readonly bad: readonly (readonly [value: unknown, problem: string])[];
}

/** A row for every option of `T`: an option added without one fails to compile. */
type OptionTables<T> = { readonly [K in keyof T]-?: OptionTable };

const fault = networkError();
const INTEGER = 'an integer';

const ruleOptions: OptionTables<ChaosRule> = {
  name: { good: ['flaky'], bad: [['', "name must be a non-blank string, got ''"]] },
  tools: {
    good: ['search*', ['a', 'b']],
    bad: [
      [3, 'tools must be a non-blank string, or a list of a non-blank string, got 3'],
      [['a', ''], "tools[1] must be a non-blank string, got ''"],
    ],
  },
  fault: {
    good: [fault],
    bad: [
      ['reset', "fault must be a ChaosFault (an object with inject()), got 'reset'"],
      [undefined, 'fault must be a ChaosFault (an object with inject()), got undefined'],
    ],
  },
  probability: {
    good: [0, 0.5, 1],
    bad: [
      [1.5, 'probability must be a number from 0 to 1, got 1.5'],
      [NaN, 'probability must be a number from 0 to 1, got NaN'],
    ],
  },
  everyNth: { good: [1, 5], bad: [[0, 'everyNth must be an integer from 1 up, got 0']] },
  firstN: { good: [0, 3], bad: [[1.5, 'firstN must be an integer from 0 up, got 1.5']] },
  activeFrom: {
    good: [0, new Date(0)],
    bad: [
      [new Date(NaN), 'activeFrom must be a finite number, or a valid Date, got an invalid Date'],
      ['2026', "activeFrom must be a finite number, or a valid Date, got '2026'"],
    ],
  },
  activeUntil: {
    good: [Date.UTC(2030, 0)],
    bad: [[Infinity, 'activeUntil must be a finite number, or a valid Date, got Infinity']],
  },
  maxInjections: {
    good: [0, 2],
    bad: [[-1, 'maxInjections must be an integer from 0 up, got -1']],
  },
  seed: { good: [-1, 42], bad: [[0.5, `seed must be ${INTEGER}, got 0.5`]] },
};

const controllerOptions: OptionTables<ChaosControllerOptions> = {
  rules: {
    good: [[], [{ fault }]],
    bad: [
      [[{ fault, probability: 2 }], 'rules[0].probability must be a number from 0 to 1, got 2'],
    ],
  },
  seed: { good: [0, 2 ** 32 - 1], bad: [[NaN, `seed must be ${INTEGER}, got NaN`]] },
  clock: {
    good: [new VirtualClock()],
    bad: [[Date, 'clock must be a Clock (an object with now() and setTimer()), got a function']],
  },
  enabled: { good: [false], bad: [['yes', "enabled must be true or false, got 'yes'"]] },
  allowInProduction: {
    good: [true, false],
    bad: [[1, 'allowInProduction must be true or false, got 1']],
  },
  env: {
    good: [{ NODE_ENV: 'test' }],
    bad: [['test', "env must be an object of environment variables, got 'test'"]],
  },
};

describe('chaos rules', () => {
  describe.each(Object.entries(ruleOptions))('%s', (key, table) => {
    const rule = (value: unknown) => ({ fault, [key]: value }) as ChaosRule;

    it.each(table.good.map((value) => [value]))('accepts %p', (value) => {
      expect(() => new ChaosController({ rules: [rule(value)] })).not.toThrow();
    });

    it.each(table.bad)('refuses %p, naming the rule and the option', (value, problem) => {
      const id = key === 'name' ? value : 'rule-1';
      expect(() => new ChaosController().addRule(rule(value))).toThrow(
        `Invalid chaos rule "${String(id)}": ${problem}`,
      );
    });
  });
});

describe('ChaosModule and ChaosController options', () => {
  describe.each(Object.entries(controllerOptions))('%s', (key, table) => {
    it.each(table.good.map((value) => [value]))('accepts %p', (value) => {
      expect(() => new ChaosController({ [key]: value })).not.toThrow();
      expect(() => ChaosModule.forRoot({ [key]: value })).not.toThrow();
    });

    it.each(table.bad)('refuses %p at startup, naming the option', (value, problem) => {
      const options = { [key]: value } as ChaosControllerOptions;
      expect(() => new ChaosController(options)).toThrow(
        `Invalid ChaosController options: ${problem}`,
      );
      expect(() => ChaosModule.forRoot(options)).toThrow(`Invalid ChaosModule options: ${problem}`);
    });
  });

  it('refuses the options a forRootAsync factory returns', async () => {
    const startup = Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot(),
        ChaosModule.forRootAsync({ useFactory: () => ({ seed: Number.POSITIVE_INFINITY }) }),
      ],
    }).compile();
    await expect(startup).rejects.toThrow(
      `Invalid ChaosModule options: seed must be ${INTEGER}, got Infinity.`,
    );
  });

  it('fails startup on a bad @Chaos() rule, naming the tool', async () => {
    @Injectable()
    class SearchTools {
      @Tool({ name: 'search', description: 'Searches.' })
      @Chaos({ fault }, { fault, everyNth: 0 })
      search() {
        return [];
      }
    }
    @Module({
      imports: [ToolShieldModule.forRoot(), ChaosModule.forRoot({ env: { NODE_ENV: 'test' } })],
      providers: [SearchTools],
    })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    moduleRef.useLogger(false);
    await expect(moduleRef.init()).rejects.toThrow(
      'Invalid chaos rules: @Chaos(search)[1].everyNth must be an integer from 1 up, got 0.',
    );
    await moduleRef.close();
  });
});

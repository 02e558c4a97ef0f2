import type { ScriptedTask } from './scripted-model.js';

/** The demo's user message: any model gets it; the scripted one works from `TRIP_SCRIPT`. */
export const TRIP_REQUEST =
  "I'm in Paris tomorrow with 200 EUR. What's the weather there, how much is my budget in USD, " +
  "and add 'pack an umbrella' to my paris-trip note.";

const BUDGET_EUR = 200;
const NOTE = { name: 'paris-trip', line: 'pack an umbrella' };

/**
 * The scripted model's plan for `TRIP_REQUEST`. The note has two approaches: appending to the
 * existing note, or, when there is none, writing a new one.
 */
export const TRIP_SCRIPT: ScriptedTask = {
  goals: [
    {
      need: 'the weather in Paris',
      approaches: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      report: (output) => {
        const { temperature, sky } = output as { temperature: string; sky: string };
        return `Paris tomorrow: ${temperature} and ${sky}.`;
      },
    },
    {
      need: 'the budget in USD',
      approaches: [{ name: 'get_exchange_rate', arguments: { from: 'EUR', to: 'USD' } }],
      report: (output) => {
        const { rate } = output as { rate: number };
        return `${BUDGET_EUR} EUR is ${(BUDGET_EUR * rate).toFixed(2)} USD (rate ${rate}).`;
      },
    },
    {
      need: `the ${NOTE.name} note`,
      approaches: [
        { name: 'append_note', arguments: NOTE },
        { name: 'write_note', arguments: { name: NOTE.name, text: NOTE.line } },
      ],
      report: (output) => {
        const { name, lines } = output as { name: string; lines: readonly string[] };
        return `Your ${name} note now reads: ${lines.join('; ')}.`;
      },
    },
  ],
};

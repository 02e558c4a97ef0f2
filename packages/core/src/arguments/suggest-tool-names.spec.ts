import { describe, expect, it } from '@jest/globals';
import { suggestToolNames } from './suggest-tool-names.js';

const tools = ['get_weather', 'get_forecast', 'send_email', 'search_flights', 'book_flight'];

describe('suggestToolNames', () => {
  it('suggests the closest names for a typo', () => {
    expect(suggestToolNames('get_wether', tools)).toEqual(['get_weather']);
    expect(suggestToolNames('book_flights', tools)).toEqual(['book_flight']);
  });

  it('ignores case and separators', () => {
    expect(suggestToolNames('GetWeather', tools)[0]).toBe('get_weather');
    expect(suggestToolNames('send-email', tools)).toEqual(['send_email']);
  });

  it('understands namespaced names', () => {
    const mcp = [
      'sequential-thinking__sequentialthinking',
      'github__create_issue',
      'github__search_code',
      'fs.read_file',
    ];
    expect(suggestToolNames('sequential-thinking', mcp)).toEqual([
      'sequential-thinking__sequentialthinking',
    ]);
    expect(suggestToolNames('sequentialthinking', mcp)).toEqual([
      'sequential-thinking__sequentialthinking',
    ]);
    expect(suggestToolNames('github/create_issue', mcp)).toEqual(['github__create_issue']);
    expect(suggestToolNames('read_file', mcp)).toEqual(['fs.read_file']);
    expect(suggestToolNames('github', mcp)).toEqual([
      'github__create_issue',
      'github__search_code',
    ]);
  });

  it('finds a name contained in a longer one', () => {
    expect(suggestToolNames('weather', ['get_current_weather', 'send_email'])).toEqual([
      'get_current_weather',
    ]);
  });

  it('returns at most `max` names, and nothing when nothing is close', () => {
    const many = ['tool_a1', 'tool_a2', 'tool_a3', 'tool_a4'];
    expect(suggestToolNames('tool_a', many)).toHaveLength(3);
    expect(suggestToolNames('tool_a', many, 1)).toEqual(['tool_a1']);
    expect(suggestToolNames('delete_database', tools)).toEqual([]);
    expect(suggestToolNames('', tools)).toEqual([]);
    expect(suggestToolNames('get_weather', [])).toEqual([]);
  });
});

describe('suggestToolNames with a huge asked name', () => {
  it('still finds the tool a namespaced huge name ends with, and nothing for noise', () => {
    const available = ['get_weather', 'send_email'];
    expect(suggestToolNames(`${'x'.repeat(100_000)}__get_wether`, available)).toEqual([
      'get_weather',
    ]);
    expect(suggestToolNames('get_weather'.repeat(10_000), available)).toEqual([]);
  });
});

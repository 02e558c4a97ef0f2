import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ToolExecutor } from '@toolshield/nest';
import { existsSync } from 'node:fs';
import { createSampleApp } from '../../test/fixtures/sample-app.js';
import { NotesDirectory } from './notes-directory.js';

describe('notes tools', () => {
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  let executor: ToolExecutor;
  beforeEach(async () => {
    app = await createSampleApp();
    executor = app.moduleRef.get(ToolExecutor);
  });
  afterEach(() => app.close());

  const call = (name: string, args: Record<string, unknown>) =>
    executor.execute({ id: name, name, arguments: args });

  it('answers a missing note with not_found, for reading and for appending', async () => {
    const calls = [
      call('read_note', { name: 'nope' }),
      call('append_note', { name: 'nope', line: 'x' }),
    ];
    for (const outcome of calls) {
      await expect(outcome).resolves.toMatchObject({
        success: false,
        errorType: 'not_found',
        recoverable: false,
        error: 'No note named "nope"; write_note creates one.',
      });
    }
  });

  it('writes, appends to and reads a note on disk', async () => {
    await expect(call('write_note', { name: 'trip', text: 'passport' })).resolves.toMatchObject({
      output: { name: 'trip', lines: ['passport'] },
    });
    await expect(call('append_note', { name: 'trip', line: 'umbrella' })).resolves.toMatchObject({
      output: { name: 'trip', lines: ['passport', 'umbrella'] },
    });
    await expect(call('read_note', { name: 'trip' })).resolves.toMatchObject({
      output: { name: 'trip', lines: ['passport', 'umbrella'] },
    });
  });

  it("keeps each run's notes to that run, and drops them when the run ends", async () => {
    const inRun = (runId: string, name: string, args: Record<string, unknown>) =>
      executor.execute({ id: name, name, arguments: args }, { metadata: { runId } });
    await inRun('run-a', 'write_note', { name: 'trip', text: 'passport' });
    await expect(inRun('run-b', 'read_note', { name: 'trip' })).resolves.toMatchObject({
      errorType: 'not_found',
    });
    await expect(call('read_note', { name: 'trip' })).resolves.toMatchObject({
      errorType: 'not_found',
    });
    await expect(inRun('run-a', 'read_note', { name: 'trip' })).resolves.toMatchObject({
      output: { lines: ['passport'] },
    });
    await app.moduleRef.get(NotesDirectory).forgetRun('run-a');
    await expect(inRun('run-a', 'read_note', { name: 'trip' })).resolves.toMatchObject({
      errorType: 'not_found',
    });
  });

  it('refuses names that could leave the notes directory', async () => {
    await expect(call('read_note', { name: '../etc/passwd' })).resolves.toMatchObject({
      success: false,
      errorType: 'invalid_input',
    });
  });

  it('removes its directory when the application closes', async () => {
    const path = await app.moduleRef.get(NotesDirectory).path();
    expect(existsSync(path)).toBe(true);
    await app.close();
    expect(existsSync(path)).toBe(false);
  });
});

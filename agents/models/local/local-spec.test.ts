// Which file `local:` may load: any path from the command line, only a
// models-folder name from a host serving pages.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../model';
import { createModel, parseModelSpec } from '../spec';
import { localSpecFile } from './local-spec';

describe('local: specs', () => {
  it('parse as the local provider, and need a name', () => {
    expect(parseModelSpec('local:qwen3-1.7b')).toEqual({ provider: 'local', name: 'qwen3-1.7b', spec: 'local:qwen3-1.7b' });
    expect(() => parseModelSpec('local:')).toThrow(/local needs a .gguf file or a model name/);
  });

  it('a host serving pages loads only names in its models folder, never a path', () => {
    const dir = path.join('/srv', 'models');
    expect(localSpecFile('qwen3-1.7b', { dir })).toBe(path.join(dir, 'qwen3-1.7b.gguf'));
    expect(localSpecFile('tiny.gguf', { dir })).toBe(path.join(dir, 'tiny.gguf'));
    for (const bad of ['/etc/passwd', '../secret.gguf', 'sub/model.gguf', '.hidden', '..\\x.gguf'])
      expect(() => localSpecFile(bad, { dir }), bad).toThrow(/not a model name: this host loads only models in its models folder/);
    expect(() => createModel('local:/etc/hosts.gguf', { localModels: { dir } })).toThrow(ModelError);
  });

  it('the command line resolves a path or a models-folder name', () => {
    expect(localSpecFile('/tmp/m.gguf', 'any')).toBe('/tmp/m.gguf');
    expect(localSpecFile('qwen', 'any', { SKILLBRIDGE_MODELS_DIR: '/data/models' })).toBe(path.join('/data/models', 'qwen.gguf'));
  });

  it('refuses a bad setting by name', () => {
    expect(() => createModel('local:/nowhere/m.gguf', { env: { SKILLBRIDGE_LOCAL_MAX_TOKENS: 'lots' } })).toThrow(
      /SKILLBRIDGE_LOCAL_MAX_TOKENS="lots" is not a positive whole number/,
    );
  });
});

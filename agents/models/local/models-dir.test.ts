import { describe, expect, it } from 'vitest';
import { defaultModelsDir, localModelFile, namesFile } from './models-dir';

describe('local models folder', () => {
  it('honours SKILLBRIDGE_MODELS_DIR, then the platform data folder', () => {
    expect(defaultModelsDir({ SKILLBRIDGE_MODELS_DIR: '/m' }, 'linux')).toBe('/m');
    expect(defaultModelsDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/share/skillbridge/models');
    expect(defaultModelsDir({ HOME: '/h', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/x/skillbridge/models');
    expect(defaultModelsDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/skillbridge/models');
  });
  it('maps local:NAME to a file: paths as given, catalogue ids inside the folder', () => {
    expect(namesFile('tiny.gguf')).toBe(true);
    expect(namesFile('qwen2.5-0.5b-instruct')).toBe(false);
    expect(localModelFile('m/tiny.gguf', '/models', '/cwd')).toBe('/cwd/m/tiny.gguf');
    expect(localModelFile('/abs/x.GGUF', '/models', '/cwd')).toBe('/abs/x.GGUF');
    expect(localModelFile('qwen3-0.6b', '/models', '/cwd')).toBe('/models/qwen3-0.6b.gguf');
  });
});

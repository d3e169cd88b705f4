// The model-factory hook: a layer above adds kinds of model by name (evaluation's
// reference policies) without this layer importing it; openConversation builds
// them once the robot is open, from the robot and the simulator's handle.
import { describe, expect, it } from 'vitest';
import { type ModelHostContext, openConversation } from '../conversation';
import { ModelError, type Model } from './model';
import { fromFunction } from './scripted';
import { type ModelFactory, createModel, findModelFactory, validateModelSpec } from './spec';

function factory(seen: ModelHostContext[] = []): ModelFactory<ModelHostContext> {
  return {
    name: 'echo',
    forms: ['echo:WORD'],
    validate(rest) {
      if (!rest) throw new ModelError('Bad model spec "echo": write echo:WORD', 'config');
    },
    create(rest, ctx): Model {
      seen.push(ctx);
      return fromFunction(() => ({ content: `${rest} from ${ctx.robot.info.scene.id}` }), { id: `echo:${rest}` });
    },
  };
}

describe('model factories', () => {
  it('finds a factory by the spec prefix, with the rest of the spec', () => {
    expect(findModelFactory('echo:hi', [factory()])?.rest).toBe('hi');
    expect(findModelFactory('ECHO', [factory()])?.rest).toBe('');
    expect(findModelFactory('ollama:qwen3:8b', [factory()])).toBeUndefined();
  });

  it("checks a spec with the factory's own rule, and lists its forms beside the providers' when nothing matches", () => {
    expect(() => validateModelSpec('echo', [factory()])).toThrow(/write echo:WORD/);
    expect(() => validateModelSpec('nonsense', [factory()])).toThrow(/echo:WORD/);
    expect(() => validateModelSpec('ollama:qwen3:8b', [factory()])).not.toThrow();
    expect(createModel('echo:x', { factories: [factory()] }).id).toBe('echo:x');
  });

  it('openConversation builds the model after the robot opens, with the simulator handle', async () => {
    const seen: ModelHostContext[] = [];
    const opened = await openConversation({
      robot: { kind: 'sim', scene: 'tabletop/fruits' },
      workflow: 'flat',
      model: 'echo:hello',
      modelFactories: [factory(seen)],
      scene: 'tabletop/fruits',
      seed: 4,
    });
    try {
      expect(seen).toHaveLength(1);
      expect(seen[0]!.sim).toBeDefined();
      expect(seen[0]!.seed).toBe(4);
      const turn = await opened.conversation.send('anything');
      expect(turn.final).toBe('hello from tabletop/fruits');
    } finally {
      await opened.close();
    }
  });

  it('a bad spec is refused before any world is built', async () => {
    await expect(
      openConversation({ robot: { kind: 'sim', scene: 'no/such-scene' }, workflow: 'flat', model: 'echo', modelFactories: [factory()] }),
    ).rejects.toThrow(/write echo:WORD/);
  });
});

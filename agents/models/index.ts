// The models layer: the Model seam and its adapters.
export * from './model';
export { createOpenAICompatibleModel, ToolCallAssembler, retryAfter, type OpenAICompatibleOptions } from './openai-compatible';
export {
  parseTextToolCalls,
  withTextToolCalls,
  textHistory,
  describeTools,
  formatInstructions,
  renderTextToolCall,
  TEXT_TOOL_CALL_FORMATS,
  type TextToolCallFormat,
  type TextToolCallOptions,
  type ParsedTextToolCall,
  type TextToolCallParse,
} from './text-tool-calls';
export {
  createScriptedModel,
  loadScriptedModel,
  fromFunction,
  parseScript,
  ScriptedTurnSchema,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedTurn,
} from './scripted';
export {
  parseModelSpec,
  createModel,
  findModelFactory,
  validateModelSpec,
  type ModelFactory,
  resolveApiKey,
  keySources,
  normalizeBaseURL,
  presetBaseURL,
  type KeyScope,
  type ScriptFiles,
  type ModelProvider,
  type ServerProvider,
  type ParsedModelSpec,
  type CreateModelOptions,
  type SecretLookup,
} from './spec';
export { createLocalModel, checkGgufFile, type LocalModel, type LocalModelOptions } from './local/local-model';
export { localModelFromSpec, localSpecFile, type LocalModelFiles } from './local/local-spec';
export { defaultModelsDir, localModelFile } from './local/models-dir';
export { probeModel, probeSpec, type ProbeOptions, type ProbeReport } from './probe';

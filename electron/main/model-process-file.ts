// The built model process script's name beside the main bundle: electron.vite.config.ts
// builds agents/models/local/llama-process.mjs as its `llama-process` entry. Its own
// module so a test in plain Node can check it without loading electron.
export const MODEL_PROCESS_FILE = 'llama-process.js';

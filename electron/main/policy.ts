// The desktop window's rules that are worth testing without Electron: where the
// renderer may come from, which links may open outside, and what the app asks
// its person before a key leaves for a server the page named.

/** electron-vite's dev server URL, honoured only in a development run, never in a packaged app. */
export function devRendererUrl(isPackaged: boolean, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (isPackaged) return undefined;
  const url = env['ELECTRON_RENDERER_URL'];
  // Only a dev server on this machine: nothing else may become the app's trusted origin.
  return url && /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url.endsWith('/') ? url : `${url}/`) ? url : undefined;
}

/** Sites the app links to (model servers' docs, the project): only these open in the browser. */
const EXTERNAL_HOSTS = [
  'github.com',
  'ollama.com',
  'lmstudio.ai',
  'platform.openai.com',
  'docs.vllm.ai',
  'huggingface.co',
  'electronjs.org',
  'www.electronjs.org',
] as const;

/** Whether a link may open in the user's browser: https, to a host on the allowlist. */
export function mayOpenExternal(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && !u.username && !u.password && (EXTERNAL_HOSTS as readonly string[]).includes(u.hostname);
}

/** The question the desktop app asks before SKILLBRIDGE_API_KEY goes to a base URL the window named. */
export function keyQuestion(baseURL: string): { message: string; detail: string } {
  return {
    message: `Send your API key to ${baseURL}?`,
    detail:
      'The app was asked to use this model server with the key from the SKILLBRIDGE_API_KEY environment variable. ' +
      'Send it only if you trust this server with that key. (Set SKILLBRIDGE_API_BASE_URL to bind the key to one server, ' +
      'or store a key for this server in the model settings.)',
  };
}

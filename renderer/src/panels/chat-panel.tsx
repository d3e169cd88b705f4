// The agent's chat and trace. Placeholder until the agent runtime is wired in:
// it explains how a model will be connected and shows the host's answer if a
// run is attempted (the reserved `run` call, which says it is not connected).
import { useState } from 'react';
import type { AppApi } from '../../../electron/contract/api';

export function ChatPanel({ api, desktop }: { api: AppApi; desktop: boolean }) {
  const [text, setText] = useState('');
  const [reply, setReply] = useState<string | null>(null);
  const send = async () => {
    try {
      await api.run({ message: text, workflow: 'rtw', model: 'default' });
      setReply('Run started.');
    } catch (e) {
      setReply(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section className="panel chat" aria-label="Agent">
      <div className="notice" role="note">
        <h3>No model connected</h3>
        <p>Here is how to connect one (the agent runtime arrives in the next phase):</p>
        <ol>
          <li>
            Run any OpenAI-compatible server — OpenAI, or a local one such as llama.cpp (<code>llama-server --port 8080</code>, base URL{' '}
            <code>http://127.0.0.1:8080/v1</code>), vLLM or Ollama.
          </li>
          <li>
            {desktop
              ? 'Store its API key in Settings: the desktop app keeps it encrypted with the OS keychain and never shows it to this window.'
              : 'Give its API key to "skillbridge serve" through the environment (OPENAI_API_KEY); the browser never sees it.'}
          </li>
          <li>Choose a workflow (RTW, RAIDER, ALRM, planner–executor) and type a task below. The robot acts in the view while the model's messages, tool calls and results appear here.</li>
        </ol>
        <p className="muted">Until then, the tool console on the left calls tools exactly as a model would.</p>
      </div>
      <form
        className="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) void send();
        }}
      >
        <textarea aria-label="Message to the agent" rows={2} value={text} placeholder="e.g. put the lemon in the bowl" onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={!text.trim()}>
          Send
        </button>
      </form>
      {reply && (
        <div className="note fail" role="status">
          {reply}
        </div>
      )}
    </section>
  );
}

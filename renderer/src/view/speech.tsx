// "A person says": what a person in the scene said, as a speech bubble over
// their head in the 3D view for a few seconds (longer for longer words). A
// speaker the scene does not draw ("someone") speaks from the top of the view.
import { useEffect, useRef, useState } from 'react';
import type { AppApi } from '../../../contract/api';
import type { SceneMeta } from '../../../contract/schemas';

export interface Speech {
  /** The person's id in the scene, or null for a speaker the scene does not draw. */
  person: string | null;
  name: string;
  text: string;
  key: number;
}

/** How long words stay up: a reading pace, within bounds. */
export function speechMs(text: string): number {
  return Math.min(15_000, Math.max(6_000, 2_000 + text.length * 80));
}

/** The speaker as the scene draws them (by id or name), or null for a voice it does not draw. */
export function speakerOf(person: string | null, text: string, meta: SceneMeta | null): Omit<Speech, 'key'> {
  const who = person?.toLowerCase();
  const p = who === undefined ? undefined : meta?.people.find((x) => x.id.toLowerCase() === who || x.name.toLowerCase() === who);
  return { person: p?.id ?? null, name: p?.name ?? person ?? 'Someone', text };
}

/** The speech showing now (null: nobody is speaking). */
export function useSpeech(api: AppApi, meta: SceneMeta | null): Speech | null {
  const [speech, setSpeech] = useState<Speech | null>(null);
  // The people are read when words arrive: a refreshed copy of the same scene does not cut them short.
  const metaRef = useRef(meta);
  metaRef.current = meta;
  const scene = meta ? `${meta.id}@${meta.generation}` : null;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = api.onEvent((e) => {
      if (e.type !== 'person_spoke') return;
      const s = speakerOf(e.person, e.text, metaRef.current);
      setSpeech({ ...s, key: e.id });
      clearTimeout(timer);
      timer = setTimeout(() => setSpeech(null), speechMs(s.text));
    });
    return () => {
      off();
      clearTimeout(timer);
      setSpeech(null);
    };
  }, [api, scene]);
  return speech;
}

export function SpeechBubble({ speech, at }: { speech: Speech; at: [number, number] | null }) {
  const style = at
    ? { transform: `translate(${Math.round(at[0])}px, ${Math.round(at[1] - 8)}px) translate(-50%, -100%)` }
    : { left: '50%', top: 56, transform: 'translateX(-50%)' };
  return (
    <div className={`speech${at ? '' : ' unplaced'}`} style={style} role="status" data-testid="speech-bubble">
      <strong>{speech.name}:</strong> “{speech.text}”
    </div>
  );
}
